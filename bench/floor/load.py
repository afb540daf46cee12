"""The floor's load: pairs of players through the gateway at the stack's pace, timed alike.

Each match has two signed-in players, each with its Watch stream open, each sending a
command after a think time drawn around the pace (2 commands/s by default), timed from
the submit until both seats' streams have delivered the number it got: the same
measure, the same client code and the same pace as the stack's workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing.connection
import random
from dataclasses import dataclass
from typing import Any

import aiohttp

from bench.stack.pipe import serve_worker
from bench.stack.settings import SETUP_CONCURRENCY
from bench.stack.timeline import Tally, Timed, Timeline, playing
from clients.arena import ArenaClient
from photofinish.game.v1 import game_pb2, spit_pb2

COMMAND = game_pb2.Command(spit=spit_pb2.SpitCommand(ready=spit_pb2.SpitReady()))
GAME = "floor"


@dataclass(frozen=True, slots=True)
class FloorSpec:
    gateway_url: str
    match_ids: tuple[str, ...]
    seconds: float
    warmup_s: float
    commands_per_s: float
    seed: int
    cpus: frozenset[int] = frozenset()
    transport: str = "socket"  # bench.stack.timeline.TRANSPORTS


def floor_worker(conn: multiprocessing.connection.Connection, spec: FloorSpec) -> None:
    """Entry point of a load process: set up, wait for "go", play, report, exit."""
    serve_worker(conn, spec.cpus, lambda: _work(conn, spec))


async def _work(conn: multiprocessing.connection.Connection, spec: FloorSpec) -> dict[str, Any]:
    connector = aiohttp.TCPConnector(limit=0)  # every Watch holds a connection open
    async with aiohttp.ClientSession(connector=connector) as http:
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def signed_in(name: str) -> ArenaClient:
            async with gate:
                client = ArenaClient(http, spec.gateway_url)
                await client.sign_in(name)
                return client

        players = await asyncio.gather(
            *(signed_in(f"Floor {m} {s}") for m in spec.match_ids for s in (0, 1))
        )
        conn.send({"ready": len(players)})
        await asyncio.to_thread(conn.recv)  # "go"
        tally = Tally()
        rng = random.Random(spec.seed)
        tasks = []
        for index, match_id in enumerate(spec.match_ids):
            timeline = Timeline(tally)
            for seat in (0, 1):
                arena = playing(players[2 * index + seat], spec.transport)
                timed = Timed(arena, timeline, GAME)
                tasks.append(asyncio.create_task(_watch(timed, match_id, seat)))
                delay = rng.uniform(0, spec.warmup_s)
                tasks.append(asyncio.create_task(_play(timed, match_id, seat, delay, spec, rng)))
        await asyncio.sleep(spec.warmup_s)
        tally.counting = True
        loop = asyncio.get_running_loop()
        started = loop.time()
        await asyncio.sleep(spec.seconds)
        tally.counting = False
        elapsed = loop.time() - started
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return {
            "elapsed_s": elapsed,
            "both_s": tally.both_s,
            "accepted": sum(tally.accepted.values()),
            "refused": sum(tally.refused.values()),
        }


async def _watch(timed: Timed, match_id: str, seat: int) -> None:
    async for _ in timed.watch(match_id, seat):
        pass


async def _play(
    timed: Timed, match_id: str, seat: int, delay_s: float, spec: FloorSpec, rng: random.Random
) -> None:
    await asyncio.sleep(delay_s)
    mean_s = 1 / spec.commands_per_s
    while True:
        await asyncio.sleep(rng.uniform(0.5 * mean_s, 1.5 * mean_s))
        with contextlib.suppress(Exception):
            await timed.submit(match_id, seat, COMMAND)
