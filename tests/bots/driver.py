"""The human side of a match in the tests: the engine's own bot, on the human's view.

Deliberately simpler than the pool's seat player: it reads the stream in the background,
always plans from the newest update, waits the plan's think time (scaled), submits, and
after a refusal re-plans from the next update (or from the same one after a short wait).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from games.bot import Level
from games.registry import Game
from games.seats import Seat
from photofinish.arbitration.v1 import arbitration_pb2

# Guards against a hang, never a speed target.
QUIET_TIMEOUT_S = 30.0
RETRY_S = 0.5

Update = arbitration_pb2.MatchUpdate


@dataclass(slots=True)
class Log:
    """Everything the human's seat saw and did."""

    updates: list[Update] = field(default_factory=list)
    accepted: int = 0
    refused: dict[str, int] = field(default_factory=dict)

    def events(self, game: str) -> list[Any]:
        """Return every game event the seat saw (``game``: "bid" or "spit"), in order."""
        return [getattr(event, game) for update in self.updates for event in update.events]


async def drive(
    client: ArenaClient,
    match_id: str,
    seat: int,
    game: Game,
    level: Level,
    rng: random.Random,
    log: Log,
    think_scale: float = 0.0,
    stop: Callable[[Update], bool] | None = None,
) -> Update:
    """Play ``seat`` until the match ends (or ``stop`` holds); return the last update."""
    queue: asyncio.Queue[Update | BaseException] = asyncio.Queue()
    reader = asyncio.create_task(_read(client, match_id, seat, queue))
    try:
        latest = await _next(queue, log)
        while True:
            while not queue.empty():
                latest = await _next(queue, log)
            if latest.status != arbitration_pb2.STATUS_LIVE or (stop and stop(latest)):
                return latest
            plan = game.bots.plan(game.codec.view_from_proto(latest.view), Seat(seat), level, rng)
            if plan is not None:
                await asyncio.sleep(plan.think_ms * think_scale / 1000)
                try:
                    await client.submit(match_id, seat, game.codec.command_to_proto(plan.command))
                    log.accepted += 1
                except CallError as error:
                    log.refused[error.reason] = log.refused.get(error.reason, 0) + 1
                    if queue.empty():
                        await asyncio.sleep(RETRY_S)
                    continue
            latest = await _next(queue, log)
    finally:
        reader.cancel()


async def _read(
    client: ArenaClient, match_id: str, seat: int, queue: asyncio.Queue[Update | BaseException]
) -> None:
    try:
        async for update in client.watch(match_id, seat):
            queue.put_nowait(update)
    except (CallError, aiohttp.ClientError, ValueError) as error:
        queue.put_nowait(error)  # handed to the driver, which fails the test with it


async def _next(queue: asyncio.Queue[Update | BaseException], log: Log) -> Update:
    item = await asyncio.wait_for(queue.get(), QUIET_TIMEOUT_S)
    if isinstance(item, BaseException):
        raise item
    log.updates.append(item)
    return item
