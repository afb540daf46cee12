"""A load worker process: pair players through the gateway and play their seats."""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import random
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bench.stack.pipe import serve_worker
from bench.stack.settings import (
    CANCEL_ROUNDS,
    CANCEL_WAIT_S,
    GAME_BY_NAME,
    LAG_PROBE_S,
    MISSING_AFTER_S,
    SETUP_CONCURRENCY,
    SETUP_TIMEOUT_S,
    T,
)
from bench.stack.timeline import Tally, Timed, Timeline, playing
from clients.arena import ArenaClient
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1 import arbitration_pb2


@dataclass(frozen=True, slots=True)
class WorkerSpec:
    index: int
    gateway_url: str
    games: tuple[tuple[int, str], ...]  # (match number, game name)
    seconds: float
    warmup_s: float
    scales: tuple[tuple[str, float], ...]
    seed: int
    cpus: frozenset[int] = frozenset()  # the CPUs the worker may run on (empty: any)
    transport: str = "socket"  # bench.stack.timeline.TRANSPORTS


@dataclass(slots=True)
class Seated:
    number: int
    game: str
    match_id: str
    players: tuple[ArenaClient, ArenaClient]  # by seat


def worker_main(conn: multiprocessing.connection.Connection, spec: WorkerSpec) -> None:
    """Entry point of a worker process: set up, wait for "go", play, report, exit."""
    serve_worker(conn, spec.cpus, lambda: _worker(conn, spec))


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


async def _wait(tasks: list[asyncio.Task[arbitration_pb2.MatchUpdate]], seconds: float) -> None:
    """Wait ``seconds`` or until every match has ended; a worker given no match (fewer
    matches than workers) still waits out the window."""
    if tasks:
        await asyncio.wait(tasks, timeout=seconds)
    else:
        await asyncio.sleep(seconds)


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
                Timed(playing(client, spec.transport), timeline, match.game),
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
    await _wait(tasks, spec.warmup_s)
    lags.clear()
    tally.counting = True
    started = loop.time()
    await _wait(tasks, spec.seconds)
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


def assign(matches: int, game: str, workers: int) -> list[list[tuple[int, str]]]:
    """Return each worker's (match number, game) list: games alternate, and each worker
    gets an even mix of them."""
    names = ("spit", "bid") if game == "both" else (game,)
    shares: list[list[tuple[int, str]]] = [[] for _ in range(workers)]
    for number in range(matches):
        shares[(number // len(names)) % workers].append((number, names[number % len(names)]))
    return shares
