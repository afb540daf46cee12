"""One bot playing one seat of one match, through the public API, until the match ends.

Two tasks share the seat: the watcher keeps the latest update (reconnecting when the
stream is lost), and the player loop plans from it and sends at the due time. Planning
happens once per new update (by sequence number: a race notice repeats its step's number
and changes no view), never from a view older than the bot's own last accepted command.
See ``planning`` for when a plan is kept, replaced or already on its way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from clients.bots.planning import Pace, Pending, in_motion, retry_delay_s, revise
from clients.bots.watching import Arena, Reconnect, WatchLost, follow
from clients.grpcweb import CallError
from clients.kept_view import ChangeMissed, KeptView
from games.bot import Level
from games.errors import Malformed
from games.registry import Game
from games.seats import Seat
from photofinish.arbitration.v1 import arbitration_pb2

log = logging.getLogger("bots")

SUBMIT_TIMEOUT_S = 10.0


@dataclass(slots=True)
class Tally:
    """What a seat did: commands accepted and refused, updates that could not be read."""

    accepted: int = 0
    refused: int = 0
    unreadable: int = 0
    reasons: Counter[str] = field(default_factory=Counter)  # the refusals, by reason


class SeatPlayer:
    """Plays ``seat`` of ``match_id`` with the engine's bot for ``game`` at ``level``."""

    def __init__(
        self,
        arena: Arena,
        match_id: str,
        seat: int,
        game: Game,
        level: Level,
        rng: random.Random,
        pace: Pace,
        reconnect: Reconnect,
    ) -> None:
        self.match_id, self.seat = match_id, seat
        self._arena, self._game, self._level = arena, game, level
        self._rng, self._pace, self._reconnect = rng, pace, reconnect
        # Reconnect jitter draws from its own generator, so a seeded bot's choices do not
        # depend on how often its stream was lost.
        self._jitter = random.Random(rng.random())
        self.tally = Tally()
        self._latest: arbitration_pb2.MatchUpdate | None = None
        self._kept = KeptView(game)
        self._view: Any = None  # the engine's view after ``_latest`` (None: none readable)
        self._wake = asyncio.Event()
        self._pending: Pending[Any] | None = None
        self._planned_seq = -1  # the update the pending plan (or the last None) came from
        self._awaiting_seq = 0  # our last accepted command's number: older views are stale
        self._refusals = 0  # in a row
        self._retry_at: float | None = None

    async def play(self) -> arbitration_pb2.MatchUpdate:
        """Return the match's final update (FINISHED or VOIDED), with its whole view, once it
        arrives.

        Raises:
            WatchLost: when the seat's updates cannot be followed any more.
        """
        watcher = asyncio.create_task(self._follow(), name=f"watch-{self.match_id}-{self.seat}")
        loop = asyncio.get_running_loop()
        try:
            while True:
                latest = self._latest
                if latest is not None and latest.status != arbitration_pb2.STATUS_LIVE:
                    return self._with_view(latest)
                if watcher.done():
                    watcher.result()  # raises WatchLost
                    raise WatchLost("the watch ended before the match")
                now = loop.time()
                self._think(now)
                if self._pending is not None and self._pending.due_s <= now:
                    await self._send(self._pending)
                    continue  # an update may have come in meanwhile: look again at once
                await self._sleep(loop)
        finally:
            if not watcher.done():
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher

    def _with_view(self, update: arbitration_pb2.MatchUpdate) -> arbitration_pb2.MatchUpdate:
        """Return ``update`` with the whole view the seat keeps, where it came as a change."""
        if not update.HasField("view") and self._view is not None:
            update.view.CopyFrom(self._game.codec.view_to_proto(self._view))
        return update

    async def _follow(self) -> None:
        try:
            await follow(
                self._arena, self.match_id, self.seat, self._deliver, self._reconnect, self._jitter
            )
        finally:
            self._wake.set()

    def _deliver(self, update: arbitration_pb2.MatchUpdate) -> None:
        try:
            self._view = self._kept.keep(update)
        except ChangeMissed:
            self._view = None  # nothing planned until the stream, opened again, shows one
            raise
        except Malformed as error:
            # Not a view this game's bot can read: skip it, the next update may be fine.
            self._view = None
            self.tally.unreadable += 1
            log.warning("unreadable view", extra={"fields": self._fields(error=str(error))})
        self._latest = update
        self._wake.set()

    async def _sleep(self, loop: asyncio.AbstractEventLoop) -> None:
        """Return at the next update, or when the pending command or a retry is due."""
        pending_s = None if self._pending is None else self._pending.due_s
        due = [t for t in (self._retry_at, pending_s) if t is not None]
        timeout = max(0.0, min(due) - loop.time()) if due else None
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
        # that lands in the same loop step as the wake-up, leaving a cancelled seat waiting.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._wake.wait()
        self._wake.clear()

    def _think(self, now: float) -> None:
        """Re-plan when there is news (or a retry is due), unless a command is in motion."""
        update = self._latest
        if update is None or update.seq < self._awaiting_seq:
            return
        news = update.seq != self._planned_seq
        retry = self._retry_at is not None and now >= self._retry_at
        if not (news or retry) or in_motion(self._pending, now, self._pace):
            return
        self._planned_seq, self._retry_at = update.seq, None
        view = self._view
        if view is None:  # unreadable, or a change went missing: the next whole view will do
            self._pending = None
            return
        plan = self._game.bots.plan(view, Seat(self.seat), self._level, self._rng)
        self._pending = revise(self._pending, plan, now, self._pace)

    async def _send(self, pending: Pending[Any]) -> None:
        """Submit the pending command; on refusal wait for news (or retry later)."""
        self._pending = None
        command = self._game.codec.command_to_proto(pending.command)
        try:
            async with asyncio.timeout(SUBMIT_TIMEOUT_S):
                reply = await self._arena.submit(self.match_id, self.seat, command)
        except CallError as error:
            # Normal in Spit: a race lost, a gate lifted meanwhile. The update that
            # explains it is on its way (or here already) and brings a new plan.
            self._refused(error.reason or str(error.code), pending)
            return
        except (aiohttp.ClientError, TimeoutError) as error:
            self._refused(f"transport: {type(error).__name__}: {error}", pending)
            return
        self.tally.accepted += 1
        self._refusals, self._retry_at = 0, None
        self._awaiting_seq = reply.seq

    def _refused(self, why: str, pending: Pending[Any]) -> None:
        self.tally.refused += 1
        self.tally.reasons[why] += 1
        self._refusals += 1
        self._retry_at = asyncio.get_running_loop().time() + retry_delay_s(self._refusals)
        log.debug("refused", extra={"fields": self._fields(command=pending.command, why=why)})

    def _fields(self, **more: object) -> dict[str, object]:
        return {"match": self.match_id, "seat": self.seat, **more}
