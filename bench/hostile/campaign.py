"""A hostile campaign against a running stack, and what must hold after it.

A Bid match waits at its opening gate (one seat pressed Ready), both players watching.
From other client addresses than the players' (this machine's 127.0.0.2 and up, which no
limit exempts), an attacker holding strangers' tokens and the players' own sends random
hostile requests of every class (``probes.py``), a burst of commands, a stream flood, a
connection flood, and clients whose headers or body trickle in (``floods.py``). Then:

- every answer was clean (``answers.py``);
- the match did not move: no update reached its players during the attack, and each
  seat's and the spectators' latest view is byte-identical to before;
- every service is alive, the gateway ready, and a new match takes its commands;
- the gateway's descriptors are back near their baseline, its memory not far above.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp

from bench.hostile.answers import Tally, send
from bench.hostile.floods import Held, burst, connection_flood, slow_clients, stream_flood
from bench.hostile.probes import CLASSES, Target
from clients.arena import ArenaClient
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.stack.stack import Stack

# The stack's settings for a campaign: short idle and body limits so that slow clients are
# let go in seconds, a cap a flood passes, and a gate that never times out meanwhile.
STACK_ENV = (
    ("PF_GATE_TIMEOUT_S", "3600"),
    ("PF_IDLE_CONNECTION_S", "2"),
    ("PF_BODY_TIMEOUT_S", "2"),
    ("PF_CONNECTIONS_PER_ADDRESS", "64"),
)
CONNECTIONS_PER_ADDRESS = 64
STREAMS_PER_PLAYER = 16  # the default
PROBES_FROM = "127.0.0.2"
FLOOD_FROM = "127.0.0.3"
SLOW_FROM = "127.0.0.4"
STREAMS_FROM = "127.0.0.5"
STRANGERS = 8
READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
FDS_SLACK = 8
RSS_SLACK_MB = 64.0
SETTLE_S = 30.0
MATCH_S = 240.0


@dataclass(frozen=True, slots=True)
class Usage:
    """A process's resident memory, open descriptors and CPU time so far."""

    rss_mb: float
    fds: int
    cpu_s: float

    @classmethod
    def of(cls, pid: int) -> Usage:
        with open(f"/proc/{pid}/status") as status:
            rss_kb = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime
        return cls(
            rss_kb / 1024, len(os.listdir(f"/proc/{pid}/fd")), ticks / os.sysconf("SC_CLK_TCK")
        )


@dataclass(slots=True)
class Report:
    requests: int
    seconds: float
    tally: Tally
    streams: Held
    connections: Held
    slow_let_go: int
    slow_sent: int
    before: Usage
    after: Usage
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        cpu = self.after.cpu_s - self.before.cpu_s
        return [
            f"requests: {self.requests} in {self.seconds:.1f} s "
            f"({self.requests / self.seconds:.0f}/s); gateway CPU {cpu:.1f} s "
            f"({1000 * cpu / max(1, self.requests):.2f} ms a request)",
            "sent by class: " + ", ".join(f"{k} {v}" for k, v in sorted(self.tally.sent.items())),
            "answers: " + ", ".join(f"{k}: {v}" for k, v in self.tally.answers.most_common()),
            f"stream flood: {self.streams.opened} held, refused {dict(self.streams.refused)}",
            f"connection flood: {self.connections.opened} opened, {self.connections.closed} "
            "closed by the gateway",
            f"slow clients: {self.slow_let_go} of {self.slow_sent} let go",
            f"gateway memory {self.before.rss_mb:.1f} -> {self.after.rss_mb:.1f} MB, "
            f"descriptors {self.before.fds} -> {self.after.fds}",
            f"unclean answers: {self.tally.fault_count}",
            *(f"  {fault}" for fault in self.tally.faults),
            f"problems: {len(self.problems)}",
            *(f"  {problem}" for problem in self.problems),
        ]


@dataclass(slots=True)
class Scene:
    """The match under attack, its players, and what they see."""

    target: Target
    players: tuple[ArenaClient, ArenaClient]
    seats: tuple[int, int]
    views: dict[int, bytes]


async def _signed_in(http: aiohttp.ClientSession, url: str, name: str) -> ArenaClient:
    client = ArenaClient(http, url)
    await client.sign_in(name)
    return client


async def _latest(client: ArenaClient, match_id: str, seat: int) -> bytes:
    stream = client.watch(match_id, seat)
    try:
        update = await asyncio.wait_for(anext(stream), 20)
    finally:
        await stream.aclose()
    return update.SerializeToString()


async def _views(scene: Scene) -> dict[int, bytes]:
    match_id = scene.target.match_id
    return {
        seat: await _latest(client, match_id, seat)
        for seat, client in (
            (scene.seats[0], scene.players[0]),
            (scene.seats[1], scene.players[1]),
            (-1, scene.players[0]),
        )
    }


async def _scene(http: aiohttp.ClientSession, url: str) -> Scene:
    alice, bob = await _signed_in(http, url, "Alice"), await _signed_in(http, url, "Bob")
    stream = alice.create_challenge(game_pb2.GAME_BID, False)
    code = (await anext(stream)).code
    accepted = await bob.accept_challenge(code)
    created = await anext(stream)
    await stream.aclose()
    match_id, seats = accepted.match_id, (created.match.seats[0], accepted.seats[0])
    await alice.submit(match_id, seats[0], READY, client_seq=1)
    strangers = [await _signed_in(http, url, f"Mallory {n}") for n in range(STRANGERS)]
    target = Target(
        match_id,
        {seats[0]: alice.web.token, seats[1]: bob.web.token},
        tuple(s.web.token for s in strangers),
        last_seq=1,
    )
    scene = Scene(target, (alice, bob), seats, {})
    scene.views = await _views(scene)
    return scene


@contextlib.asynccontextmanager
async def _watched(scene: Scene) -> AsyncIterator[list[bytes]]:
    """Hold both players' streams open for the block; yield the updates that came."""
    came: list[bytes] = []

    async def follow(client: ArenaClient, seat: int) -> None:
        stream = client.watch(scene.target.match_id, seat)
        try:
            await anext(stream)  # the latest, as it was
            async for update in stream:
                came.append(update.SerializeToString())
        finally:
            await stream.aclose()

    tasks = [
        asyncio.create_task(follow(c, s)) for c, s in zip(scene.players, scene.seats, strict=True)
    ]
    try:
        yield came
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _session(address: str, concurrency: int) -> aiohttp.ClientSession:
    # Kept-alive connections are let go before the gateway's idle limit (2 s) would.
    connector = aiohttp.TCPConnector(
        local_addr=(address, 0), limit=concurrency, keepalive_timeout=1.0
    )
    return aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60))


async def _probes(
    url: str, target: Target, requests: int, seed: int, concurrency: int, tally: Tally
) -> None:
    rng = random.Random(seed)
    queue = [rng.choice(CLASSES)(rng, target) for _ in range(requests)]

    async def worker(http: aiohttp.ClientSession) -> None:
        while queue:
            await send(http, url, queue.pop(), tally)

    async with _session(PROBES_FROM, concurrency) as http:
        await asyncio.gather(*(worker(http) for _ in range(concurrency)))
        await burst(http, url, target, 100, tally)


async def _playable(http: aiohttp.ClientSession, url: str) -> str | None:
    """Play a new Bid match to its end, two computer players at a hundredth of their
    pace; return what went wrong, if anything."""
    ann, ben = await _signed_in(http, url, "Ann"), await _signed_in(http, url, "Ben")
    stream = ann.create_challenge(game_pb2.GAME_BID, False)
    accepted = await ben.accept_challenge((await anext(stream)).code)
    created = await anext(stream)
    await stream.aclose()
    players = [
        SeatPlayer(
            client,
            accepted.match_id,
            seat,
            GAMES[game_pb2.GAME_BID],
            Level.MEDIUM,
            random.Random(seat),
            Pace(think_scale=0.01),
            Reconnect(),
        )
        for client, seat in ((ann, created.match.seats[0]), (ben, accepted.seats[0]))
    ]
    try:
        ends = await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), MATCH_S)
    except TimeoutError:
        return f"a new match did not end within {MATCH_S:.0f} s"
    if ends[0].status != arbitration_pb2.STATUS_FINISHED:
        status = arbitration_pb2.Status.Name(ends[0].status)
        return f"a new match ended {status}: {ends[0].void_reason}"
    return None


async def run(stack: Stack, requests: int, seed: int = 1, concurrency: int = 16) -> Report:
    """Attack ``stack`` (started with ``STACK_ENV``) and report what held."""
    url = stack.gateway_url
    gateway = stack.children["gateway"].process.pid
    async with aiohttp.ClientSession() as home:
        scene = await _scene(home, url)
        before = Usage.of(gateway)
        tally = Tally()
        started = time.perf_counter()
        async with _watched(scene) as came:
            await _probes(url, scene.target, requests, seed, concurrency, tally)
            async with _session(STREAMS_FROM, 64) as http:
                streams = await stream_flood(http, url, scene.target, STREAMS_PER_PLAYER + 24)
            connections, slow_let_go = await asyncio.gather(
                connection_flood(url, FLOOD_FROM, CONNECTIONS_PER_ADDRESS + 36),
                slow_clients(url, SLOW_FROM, 10, tally),
            )
        seconds = time.perf_counter() - started
        problems = []
        if came:
            problems.append(f"{len(came)} updates reached the players during the attack")
        if (after_views := await _views(scene)) != scene.views:
            changed = [seat for seat in after_views if after_views[seat] != scene.views[seat]]
            problems.append(f"the views of seats {changed} changed")
        problems += await _health(stack, home)
        if (unplayable := await _playable(home, url)) is not None:
            problems.append(unplayable)
        after = await _settled(gateway, before)
    report = Report(
        requests + 100,
        seconds,
        tally,
        streams,
        connections,
        slow_let_go,
        20,
        before,
        after,
        problems,
    )
    report.problems += _limits_held(report)
    return report


async def _health(stack: Stack, http: aiohttp.ClientSession) -> list[str]:
    problems = [
        f"{name} exited ({child.process.returncode})"
        for name, child in stack.children.items()
        if child.process.returncode is not None
    ]
    async with http.get(stack.gateway_url + "/readyz") as response:
        if response.status != 200:
            problems.append(f"/readyz answered {response.status}: {await response.text()}")
    return problems


async def _settled(pid: int, before: Usage) -> Usage:
    """Return the gateway's usage once its descriptors are back near the baseline (or
    after SETTLE_S)."""
    deadline = time.monotonic() + SETTLE_S
    while (usage := Usage.of(pid)).fds > before.fds + FDS_SLACK and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    return usage


def _limits_held(report: Report) -> list[str]:
    problems = []
    if report.tally.fault_count:
        problems.append(f"{report.tally.fault_count} answers were not clean")
    if report.streams.opened != STREAMS_PER_PLAYER:
        problems.append(f"one token held {report.streams.opened} streams")
    if report.connections.closed != report.connections.opened:
        problems.append("the gateway held connections that sent nothing")
    if report.slow_let_go != report.slow_sent:
        problems.append("the gateway held slow clients")
    if report.tally.answers["8 rate_limited"] == 0:
        problems.append("a burst of 100 commands met no rate limit")
    if report.after.fds > report.before.fds + FDS_SLACK:
        problems.append(f"descriptors {report.before.fds} -> {report.after.fds}")
    if report.after.rss_mb > report.before.rss_mb + RSS_SLACK_MB:
        problems.append(f"memory {report.before.rss_mb:.0f} -> {report.after.rss_mb:.0f} MB")
    return problems
