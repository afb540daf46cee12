"""Whole-stack speed: many live matches at human pace, command → both players' views.

Run with ``make bench`` (or ``python -m bench.stack --matches 100 --seconds 30``).

The real stack (nats-server, rules, ratings, arbitration, matchmaking, gateway) starts on
free loopback ports in a temporary folder. Worker processes sign in two guests per match
through the gateway, pair them with a casual challenge, and play both seats with the
engines' HARD bots (``clients.bots.seat.SeatPlayer``) through the public API. Every
submit is timed from just before the call until *both* seats' Watch streams have
delivered an update numbered at least as high as the number the reply gave the command.
After the run, a table gives the latency percentiles, the refusals by reason, and the
CPU seconds and memory of every process — the stack's and the load generator's, which
shares the same machine — so the bottleneck can be read off.

Pace: every think time is multiplied by a per-game scale (``--spit-scale``,
``--bid-scale``) chosen so that a player averages about 2 commands per second (accepted
or refused), the design's human pace; the printout gives the pace each game reached.
Spit's HARD bot thinks ~380 ms (median), but waits while it has no play and restarts its
thought when the piles change under it: at its own pace (scale 1) it sent ~1.9
commands/s, so it runs at 0.9. Bid is turn-based, so a player acts at most every other
step: its think times (HARD 600–1500 ms, 300–900 at gates) at scale 0.2 gave ~2.6
commands/s and at 0.27 ~1.9, so it runs at 0.25. A slower stack slows the pace a little,
as it would slow a person.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import random
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Awaitable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiohttp

from clients.arena import ArenaClient
from clients.bots.games import GAMES
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from services.rules.engine.bot import Level
from services.stack.stack import StackConfig, run_stack

GAME_BY_NAME = {"spit": game_pb2.GAME_SPIT, "bid": game_pb2.GAME_BID}
# Think-time multipliers that bring a HARD bot to about 2 commands/s (module docstring).
SPIT_THINK_SCALE = 0.9
BID_THINK_SCALE = 0.25
SETUP_CONCURRENCY = 16
SETUP_TIMEOUT_S = 180.0
STOP_TIMEOUT_S = 90.0
LAG_PROBE_S = 0.05
CANCEL_ROUNDS = 10
CANCEL_WAIT_S = 1.0
MISSING_AFTER_S = 1.0  # an accepted command whose views are this late at the stop
SATURATED = 0.85  # of one core: a single-threaded event loop past this is the bottleneck
MACHINE_SATURATED = 0.85  # of all cores, every process on the machine
OUTSIDE_NOISE = 0.25  # of one core used by processes that are not this run's
WORKER_LAG_MS = 5.0  # a load worker's event loop later than this (p99) distorts its timings
LAG_BUCKET = "pf_event_loop_lag_seconds_bucket"
CORES = os.cpu_count() or 1
T = TypeVar("T")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- one match's timeline: when each seat saw which step ---------------------------------


@dataclass(slots=True)
class Tally:
    """What one worker counts while the clock runs (``counting``)."""

    both_s: list[float] = field(default_factory=list)  # submit → both views, accepted only
    reply_s: list[float] = field(default_factory=list)  # submit → reply, accepted only
    accepted: Counter[str] = field(default_factory=Counter)  # by game
    refused: Counter[str] = field(default_factory=Counter)  # by game
    reasons: Counter[str] = field(default_factory=Counter)
    counting: bool = False


@dataclass(slots=True)
class Waiter:
    """An accepted command whose views have not reached both seats yet."""

    seq: int
    started: float
    counted: bool


@dataclass(slots=True)
class Timeline:
    """One match: when each seat first saw each step number, and the commands waiting.

    Only what a command can still need is kept: an update that arrived before the oldest
    command in flight (or waiting) was started carries a smaller number than any such
    command has or will get — the server numbers a command after it arrives — so it goes.
    """

    tally: Tally
    seen: tuple[deque[tuple[int, float]], deque[tuple[int, float]]] = field(
        default_factory=lambda: (deque(), deque())
    )
    in_flight: dict[int, float] = field(default_factory=dict)
    waiting: list[Waiter] = field(default_factory=list)
    tokens: Iterator[int] = field(default_factory=lambda: iter(range(sys.maxsize)))

    def saw(self, seat: int, seq: int, now: float) -> None:
        """Note that ``seat``'s Watch delivered update ``seq`` at ``now``."""
        seen = self.seen[seat]
        if seen and seen[-1][0] >= seq:
            return  # a repeat (a race notice, a resumed stream): not a first arrival
        seen.append((seq, now))
        if self.waiting:
            self.waiting = [waiter for waiter in self.waiting if not self._resolve(waiter)]
        self._prune(now)

    def start(self, now: float) -> int:
        """Note a submit about to be sent; return its token for ``answered``."""
        token = next(self.tokens)
        self.in_flight[token] = now
        return token

    def answered(self, token: int, seq: int | None, now: float) -> float:
        """Note a submit's end (``seq`` None: refused); return when it started."""
        started = self.in_flight.pop(token)
        if seq is not None:
            waiter = Waiter(seq, started, self.tally.counting)
            if not self._resolve(waiter):
                self.waiting.append(waiter)
        self._prune(now)
        return started

    def _first_at_least(self, seat: int, seq: int) -> float | None:
        for seen_seq, at in self.seen[seat]:
            if seen_seq >= seq:
                return at
        return None

    def _resolve(self, waiter: Waiter) -> bool:
        first = self._first_at_least(0, waiter.seq)
        second = self._first_at_least(1, waiter.seq)
        if first is None or second is None:
            return False
        if waiter.counted and self.tally.counting:
            self.tally.both_s.append(max(first, second) - waiter.started)
        return True

    def _prune(self, now: float) -> None:
        oldest = min(
            (*self.in_flight.values(), *(waiter.started for waiter in self.waiting)),
            default=now,
        )
        for seen in self.seen:
            while len(seen) > 1 and seen[0][1] < oldest:
                seen.popleft()


class Timed:
    """The public API as one seat's bot uses it, noting every update and every answer."""

    def __init__(self, client: ArenaClient, timeline: Timeline, game: str) -> None:
        self._client, self._timeline, self._game = client, timeline, game

    async def watch(self, match_id: str, seat: int) -> AsyncIterator[arbitration_pb2.MatchUpdate]:
        clock = time.perf_counter
        async with contextlib.aclosing(self._client.watch(match_id, seat)) as updates:
            async for update in updates:
                self._timeline.saw(seat, update.seq, clock())
                yield update

    async def submit(
        self, match_id: str, seat: int, command: game_pb2.Command
    ) -> arbitration_pb2.SubmitReply:
        clock, timeline, tally = time.perf_counter, self._timeline, self._timeline.tally
        token = timeline.start(clock())
        try:
            reply = await self._client.submit(match_id, seat, command)
        except BaseException as error:
            timeline.answered(token, None, clock())
            if tally.counting:
                # Cancelled while counting: the bot's own submit timeout, not the stop.
                tally.refused[self._game] += 1
                if isinstance(error, CallError):
                    tally.reasons[error.reason or f"grpc status {error.code}"] += 1
                elif isinstance(error, asyncio.CancelledError):
                    tally.reasons["no answer within the bot's submit timeout"] += 1
                else:
                    tally.reasons[f"transport: {type(error).__name__}"] += 1
            raise
        now = clock()
        started = timeline.answered(token, reply.seq, now)
        if tally.counting:
            tally.accepted[self._game] += 1
            tally.reply_s.append(now - started)
        return reply


# --- a worker process: its share of the matches -----------------------------------------


@dataclass(frozen=True, slots=True)
class WorkerSpec:
    index: int
    gateway_url: str
    games: tuple[tuple[int, str], ...]  # (match number, game name)
    seconds: float
    warmup_s: float
    scales: tuple[tuple[str, float], ...]
    seed: int


@dataclass(slots=True)
class Seated:
    number: int
    game: str
    match_id: str
    players: tuple[ArenaClient, ArenaClient]  # by seat


def worker_main(conn: multiprocessing.connection.Connection, spec: WorkerSpec) -> None:
    """Entry point of a worker process: set up, wait for "go", play, report, exit."""
    try:
        conn.send(asyncio.run(_worker(conn, spec)))
    except Exception as error:
        conn.send({"error": f"{type(error).__name__}: {error}"})
        raise
    finally:
        conn.close()


async def _worker(conn: multiprocessing.connection.Connection, spec: WorkerSpec) -> dict[str, Any]:
    connector = aiohttp.TCPConnector(limit=0)  # every Watch holds a connection open
    async with aiohttp.ClientSession(connector=connector) as http:
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def seat(number: int, game: str) -> Seated:
            async with gate:
                return await _pair(http, spec.gateway_url, number, game)

        async with asyncio.timeout(SETUP_TIMEOUT_S):
            matches = await asyncio.gather(*(seat(n, g) for n, g in spec.games))
        conn.send({"ready": len(matches)})
        await asyncio.to_thread(conn.recv)  # "go"
        return await _play(matches, spec)


async def _pair(http: aiohttp.ClientSession, url: str, number: int, game: str) -> Seated:
    """Return two fresh guests seated at a new casual match: one challenges, one accepts."""
    first, second = ArenaClient(http, url), ArenaClient(http, url)
    await first.sign_in(f"Bench {number} A")
    await second.sign_in(f"Bench {number} B")
    stream = first.create_challenge(GAME_BY_NAME[game], rated=False)
    try:
        code = (await anext(stream)).code
        accepted = await second.accept_challenge(code)
        created = (await anext(stream)).match
    finally:
        await stream.aclose()
    players = {created.seats[0]: first, accepted.seats[0]: second}
    return Seated(number, game, accepted.match_id, (players[0], players[1]))


async def _play(matches: list[Seated], spec: WorkerSpec) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    tally = Tally()
    scales = dict(spec.scales)
    timelines: list[Timeline] = []
    tasks: list[asyncio.Task[arbitration_pb2.MatchUpdate]] = []
    for match in matches:
        timeline = Timeline(tally)
        timelines.append(timeline)
        for seat, client in enumerate(match.players):
            player = SeatPlayer(
                Timed(client, timeline, match.game),
                match.match_id,
                seat,
                GAMES[GAME_BY_NAME[match.game]],
                Level.HARD,
                random.Random(f"{spec.seed}/{match.number}/{seat}"),
                Pace(think_scale=scales[match.game]),
                Reconnect(),
            )
            # Matches begin spread over the warm-up, as they would in an arena.
            offset = random.Random(f"{spec.seed}/{match.number}").uniform(0, spec.warmup_s)
            tasks.append(asyncio.create_task(_after(offset, player.play())))
    lags: list[float] = []
    probe = asyncio.create_task(_probe_lag(lags))
    await asyncio.wait(tasks, timeout=spec.warmup_s)
    lags.clear()
    tally.counting = True
    started = loop.time()
    await asyncio.wait(tasks, timeout=spec.seconds)
    tally.counting = False
    elapsed = loop.time() - started
    now = time.perf_counter()
    late = [
        now - waiter.started
        for timeline in timelines
        for waiter in timeline.waiting
        if waiter.counted and now - waiter.started > MISSING_AFTER_S
    ]
    ended: Counter[str] = Counter()
    for task in tasks:
        if task.done() and not task.cancelled():
            error = task.exception()
            if error is None:
                ended[arbitration_pb2.Status.Name(task.result().status)] += 1
            else:
                ended[f"error: {type(error).__name__}: {error}"] += 1
    probe.cancel()
    recancelled = await _cancel_everything()
    return {
        "elapsed_s": elapsed,
        "both_s": tally.both_s,
        "reply_s": tally.reply_s,
        "accepted": dict(tally.accepted),
        "refused": dict(tally.refused),
        "reasons": dict(tally.reasons),
        "seats_ended": dict(ended),
        "late_s": late,
        "lag_s": lags,
        "recancelled": recancelled,
    }


async def _cancel_everything() -> int:
    """Cancel every other task until all have ended; return how many needed asking again.

    Python 3.11's ``asyncio.wait_for`` drops a cancellation that comes in the very loop
    iteration its inner awaitable finishes (fixed in 3.12); the bots' watcher uses it, so
    a cancelled seat can go on waiting for an update that never comes. Cancelling again
    ends it.
    """
    asked_again: set[asyncio.Task[Any]] = set()
    for attempt in range(CANCEL_ROUNDS):
        current = asyncio.current_task()
        pending = [task for task in asyncio.all_tasks() if task is not current]
        if not pending:
            break
        if attempt > 0:
            asked_again.update(pending)
        for task in pending:
            task.cancel()
        await asyncio.wait(pending, timeout=CANCEL_WAIT_S)
    return len(asked_again)


async def _after(delay_s: float, play: Awaitable[T]) -> T:
    await asyncio.sleep(delay_s)
    return await play


async def _probe_lag(lags: list[float]) -> None:
    """Record how late the event loop wakes from a short sleep: its own backlog."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(LAG_PROBE_S)
        lags.append(loop.time() - asked - LAG_PROBE_S)


# --- the process table -------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """Return the user + system CPU seconds process ``pid`` has used (0 when gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_mb(pid: int) -> float:
    """Return the resident memory of process ``pid`` in MB (0 when gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def machine_ticks() -> tuple[int, int]:
    """Return the (busy, total) CPU ticks of the whole machine so far, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def child_pids_named(name: str) -> list[int]:
    """Return this process's children whose command name is ``name`` (nats-server)."""
    pids: list[int] = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with contextlib.suppress(OSError):
            for pid in (task / "children").read_text().split():
                with contextlib.suppress(OSError):
                    if Path(f"/proc/{pid}/comm").read_text().strip() == name:
                        pids.append(int(pid))
    return pids


async def lag_buckets(http: aiohttp.ClientSession, url: str) -> dict[float, float]:
    """Return a service's event-loop lag histogram (cumulative count by upper bound)."""
    buckets: dict[float, float] = {}
    with contextlib.suppress(aiohttp.ClientError, TimeoutError):
        async with http.get(url, timeout=aiohttp.ClientTimeout(total=5)) as response:
            text = await response.text()
        for line in text.splitlines():
            if line.startswith(LAG_BUCKET):
                bound = line.split('le="', 1)[1].split('"', 1)[0]
                buckets[float(bound)] = float(line.rsplit(" ", 1)[1])
    return buckets


def bucket_percentile(before: dict[float, float], after: dict[float, float], q: float) -> float:
    """Return the upper bound of the bucket holding quantile ``q`` of what came in between."""
    bounds = sorted(after)
    counts = [after[b] - before.get(b, 0.0) for b in bounds]
    if not counts or counts[-1] <= 0:
        return float("nan")
    for bound, count in zip(bounds, counts, strict=True):
        if count >= q * counts[-1]:
            return bound
    return float("inf")


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Return the value below which ``fraction`` of the sorted values lie."""
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


@dataclass(slots=True)
class Snapshot:
    """Every process's CPU seconds, the machine's ticks and the services' lag histograms."""

    cpu: dict[str, float]
    machine: tuple[int, int]
    lags: dict[str, dict[float, float]]
    at: float

    @classmethod
    async def take(
        cls, http: aiohttp.ClientSession, pids: dict[str, int], metrics: dict[str, str]
    ) -> Snapshot:
        cpu = {name: cpu_seconds(pid) for name, pid in pids.items()}
        machine, at = machine_ticks(), time.perf_counter()
        lags = {name: await lag_buckets(http, url) for name, url in metrics.items()}
        return cls(cpu, machine, lags, at)


@dataclass(slots=True)
class Usage:
    """What each process used between two snapshots."""

    wall_s: float
    cpu: dict[str, float]  # seconds
    rss: dict[str, float]  # MB at the end
    lag_p99_ms: dict[str, float]  # services: upper bound of the histogram bucket
    busy: float  # the machine, all processes: fraction of every core

    @classmethod
    def between(cls, first: Snapshot, last: Snapshot, pids: dict[str, int]) -> Usage:
        ticks = last.machine[1] - first.machine[1]
        return cls(
            wall_s=last.at - first.at,
            cpu={name: last.cpu[name] - first.cpu[name] for name in pids},
            rss={name: rss_mb(pid) for name, pid in pids.items()},
            lag_p99_ms={
                name: 1000 * bucket_percentile(first.lags[name], last.lags[name], 0.99)
                for name in last.lags
            },
            busy=(last.machine[0] - first.machine[0]) / ticks if ticks > 0 else float("nan"),
        )


# --- the run -----------------------------------------------------------------------------


def _recv(conn: multiprocessing.connection.Connection, timeout_s: float) -> dict[str, Any]:
    if not conn.poll(timeout_s):
        raise TimeoutError(f"a worker said nothing for {timeout_s:g} s")
    message: dict[str, Any] = conn.recv()
    if "error" in message:
        raise RuntimeError(f"a worker failed: {message['error']}")
    return message


def assign(matches: int, game: str, workers: int) -> list[list[tuple[int, str]]]:
    """Return each worker's (match number, game) list: games alternate, and each worker
    gets an even mix of them."""
    names = ("spit", "bid") if game == "both" else (game,)
    shares: list[list[tuple[int, str]]] = [[] for _ in range(workers)]
    for number in range(matches):
        shares[(number // len(names)) % workers].append((number, names[number % len(names)]))
    return shares


async def bench(args: argparse.Namespace) -> None:
    shares = assign(args.matches, args.game, args.workers)
    scales = (("spit", args.spit_scale), ("bid", args.bid_scale))
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="pf-bench-stack-") as tmp:
        async with (
            run_stack(StackConfig(Path(tmp), with_bots=False)) as stack,
            aiohttp.ClientSession() as http,
        ):
            pids = {name: child.process.pid for name, child in stack.children.items()}
            for pid in child_pids_named("nats-server"):
                pids["nats-server"] = pid
            metrics = {
                name: f"http://{child.address('http' if name == 'gateway' else 'metrics')}/metrics"
                for name, child in stack.children.items()
            }
            conns: list[multiprocessing.connection.Connection] = []
            workers: list[multiprocessing.process.BaseProcess] = []
            try:
                for index, share in enumerate(shares):
                    ours, theirs = context.Pipe()
                    spec = WorkerSpec(
                        index,
                        stack.gateway_url,
                        tuple(share),
                        args.seconds,
                        args.warmup,
                        scales,
                        args.seed,
                    )
                    worker = context.Process(
                        target=worker_main, args=(theirs, spec), name=f"bench-worker-{index}"
                    )
                    worker.start()
                    theirs.close()
                    conns.append(ours)
                    workers.append(worker)
                    pids[f"bench worker {index + 1}"] = worker.pid or 0
                for conn in conns:
                    await asyncio.to_thread(_recv, conn, SETUP_TIMEOUT_S + 30)
                pids["bench main"] = os.getpid()
                for conn in conns:
                    conn.send("go")
                await asyncio.sleep(args.warmup)
                first = await Snapshot.take(http, pids, metrics)
                await asyncio.sleep(args.seconds - (time.perf_counter() - first.at))
                usage = Usage.between(first, await Snapshot.take(http, pids, metrics), pids)
                results = [await asyncio.to_thread(_recv, conn, STOP_TIMEOUT_S) for conn in conns]
            finally:
                for started in workers:
                    started.join(10)
                    if started.is_alive():
                        started.kill()
                        started.join()
    report(args, results, usage)


def report(args: argparse.Namespace, results: list[dict[str, Any]], usage: Usage) -> None:
    both = sorted(v * 1000 for r in results for v in r["both_s"])
    reply = sorted(v * 1000 for r in results for v in r["reply_s"])
    accepted: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    ended: Counter[str] = Counter()
    for r in results:
        accepted.update(r["accepted"])
        refused.update(r["refused"])
        reasons.update(r["reasons"])
        ended.update(r["seats_ended"])
    seconds = max(r["elapsed_s"] for r in results)
    per_game = Counter(
        game for share in assign(args.matches, args.game, args.workers) for _, game in share
    )
    late = sorted(v for r in results for v in r["late_s"])
    worker_lags = [sorted(r["lag_s"]) for r in results]
    lag_p99_ms = dict(usage.lag_p99_ms)
    for index, lags in enumerate(worker_lags):
        lag_p99_ms[f"bench worker {index + 1}"] = 1000 * percentile(lags, 0.99)

    def ms(values: list[float]) -> str:
        quantiles = (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))
        text = "  ".join(f"{label} {percentile(values, q):6.1f}" for label, q in quantiles)
        return f"{text}  max {values[-1] if values else float('nan'):6.1f}"

    games = ", ".join(f"{n} {g}" for g, n in sorted(per_game.items()))
    print(
        f"whole stack: {args.matches} casual matches ({games}), {2 * args.matches} players on "
        f"{args.workers} load worker process(es), HARD bots; {seconds:.1f} s measured after a "
        f"{args.warmup:g} s warm-up"
    )
    print(
        f"NOTE: the load generator runs on the same {CORES}-core machine as the stack "
        "(loopback) and competes with it for CPU"
    )
    total = sum(accepted.values())
    print(f"commands accepted {total} ({total / seconds:.0f}/s), refused {sum(refused.values())}")
    for game, matches in sorted(per_game.items()):
        sent = accepted[game] + refused[game]
        scale = args.spit_scale if game == "spit" else args.bid_scale
        print(
            f"  {game:4} pace {sent / seconds / (2 * matches):.2f} commands/s per player "
            f"(think scale {scale:g}; target ~2): accepted {accepted[game]}, "
            f"refused {refused[game]}"
        )
    print(f"submit → both views (ms, n={len(both)}): {ms(both)}")
    print(f"submit → reply      (ms, n={len(reply)}): {ms(reply)}")
    if late:
        print(
            f"  {len(late)} accepted commands still without both views at the stop "
            f"(> {MISSING_AFTER_S:g} s; oldest {late[-1]:.1f} s): not in the percentiles"
        )
    if reasons:
        print("refused: " + ", ".join(f"{why} {n}" for why, n in reasons.most_common()))
    if ended:
        print("seats ended before the stop: " + ", ".join(f"{k} {n}" for k, n in ended.items()))
    recancelled = sum(r["recancelled"] for r in results)
    if recancelled:
        print(
            f"stopping: {recancelled} client tasks swallowed their first cancellation "
            "(Python 3.11 asyncio.wait_for in the bots' watcher) and were cancelled again"
        )
    wall = usage.wall_s
    sent = max(1, total + sum(refused.values()))  # every command costs the stack something
    print(
        f"\n{'process':18} {'cpu s':>7} {'% core':>7} {'ms/cmd':>7} {'rss MB':>7} "
        f"{'loop lag p99 ms':>16}"
    )
    rows = [*usage.cpu.items()]
    stack_cpu = sum(v for k, v in rows if not k.startswith("bench"))
    load_cpu = sum(v for k, v in rows if k.startswith("bench"))
    for name, cpu in [*rows, ("stack total", stack_cpu), ("load total", load_cpu)]:
        lag = lag_p99_ms.get(name)
        lag_text = "" if lag is None else f"{'≤ ' if name in usage.lag_p99_ms else ''}{lag:.1f}"
        rss = f"{usage.rss[name]:7.0f}" if name in usage.rss else ""
        print(
            f"{name:18} {cpu:7.2f} {100 * cpu / wall:7.0f} {1000 * cpu / sent:7.2f} "
            f"{rss:>7} {lag_text:>16}"
        )
    outside = max(0.0, usage.busy * CORES - (stack_cpu + load_cpu) / wall)
    print(
        f"machine busy (/proc/stat, every process): {100 * usage.busy:.0f}% of {CORES} cores; "
        f"outside this run: {100 * outside:.0f}% of a core"
    )
    print(
        "(ms/cmd: CPU ms per command sent, accepted or refused; loop lag: the services' own "
        "pf_event_loop_lag_seconds histogram bucket, the workers' 50 ms probe)"
    )
    verdict(usage, lag_p99_ms, outside)


def verdict(usage: Usage, lag_p99_ms: dict[str, float], outside: float) -> None:
    """Say in words who was saturated, so nobody has to read it off the table."""
    hot = sorted(((cpu / usage.wall_s, name) for name, cpu in usage.cpu.items()), reverse=True)
    words = [f"busiest process: {hot[0][1]} at {100 * hot[0][0]:.0f}% of one core"]
    saturated = [name for share, name in hot if share >= SATURATED]
    if saturated:
        words.append(f"saturated (≥ {100 * SATURATED:.0f}% of a core): {', '.join(saturated)}")
    if usage.busy >= MACHINE_SATURATED:
        words.append(
            f"the machine was nearly saturated ({100 * usage.busy:.0f}% of {CORES} cores busy): "
            "every process waits its turn for a CPU, and that wait is part of the latency"
        )
    if outside >= OUTSIDE_NOISE:
        words.append(
            f"processes outside this run took {100 * outside:.0f}% of a core: "
            "these numbers are disturbed, run again on a quiet machine"
        )
    workers = [name for name in usage.cpu if name.startswith("bench worker")]
    behind = [name for name in workers if lag_p99_ms.get(name, 0.0) > WORKER_LAG_MS]
    if any(name in saturated for name in workers):
        words.append(
            "the load generator was saturated: its own delay is in the latencies — "
            "use more --workers or fewer --matches"
        )
    elif behind:
        words.append(
            f"the load generator's event loops ran late (lag p99 > {WORKER_LAG_MS:g} ms: "
            f"{', '.join(behind)}) without being busy themselves: they waited for a CPU; "
            "the measured latencies include that wait"
        )
    if not saturated and usage.busy < MACHINE_SATURATED and not behind:
        words.append("nobody saturated: the stack had headroom at this load")
    print("verdict: " + ";\n  ".join(words))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="concurrent matches")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long they are measured")
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="matches start spread over this; not measured"
    )
    parser.add_argument("--game", choices=("spit", "bid", "both"), default="both")
    parser.add_argument("--workers", type=int, default=2, help="load generator processes")
    parser.add_argument("--spit-scale", type=float, default=SPIT_THINK_SCALE)
    parser.add_argument("--bid-scale", type=float, default=BID_THINK_SCALE)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not (
        1 <= args.matches <= 2000
        and 0 < args.seconds <= 600
        and 0 <= args.warmup <= 60
        and 1 <= args.workers <= 16
    ):
        parser.error("1–2000 matches, 0–600 seconds, 0–60 s warm-up and 1–16 workers")
    args.workers = min(args.workers, args.matches)
    asyncio.run(bench(args))


if __name__ == "__main__":
    main()
