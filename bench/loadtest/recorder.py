"""What a worker notes while its players play: updates, commands, refusals and errors.

``Recorded`` is the public API as one player's bots use it (``clients.bots.watching.Arena``)
with every update and every answer noted on the way. ``Recorder.drain`` hands the notes
over to the parent in batches.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bench.loadtest import visibility
from clients.bots.watching import Arena
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2

# (match, seat, seq, arrival, shown mask, chips, addressed right)
Update = tuple[str, int, int, float, int, int, bool]
STALE = "stale_client_seq"
CLOSING_STALE = "closing: stale_client_seq"
# (match, seq, started, answered)
Command = tuple[str, int, float, float]


@dataclass(slots=True)
class Recorder:
    updates: list[Update] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    finals: list[tuple[str, int, int, str]] = field(default_factory=list)
    assignments: list[tuple[str, str, int, str]] = field(default_factory=list)
    playing: int = 0  # seats in a game now
    stopping: bool = False

    def drain(self) -> dict[str, Any]:
        """Return the notes taken since the last drain, and forget them."""
        batch = {
            "updates": self.updates,
            "commands": self.commands,
            "refusals": dict(self.refusals),
            "errors": dict(self.errors),
            "finals": self.finals,
            "assignments": self.assignments,
            "playing": self.playing,
        }
        self.updates, self.commands, self.finals, self.assignments = [], [], [], []
        self.refusals, self.errors = Counter(), Counter()
        return batch


@dataclass(slots=True)
class Closing:
    """Set once the player resigns its games at the tournament's end (``driver``)."""

    started: bool = False


class Recorded:
    """One player's public API with every update and answer noted in ``recorder``."""

    def __init__(self, client: Arena, recorder: Recorder, closing: Closing) -> None:
        self._client, self._recorder, self._closing = client, recorder, closing

    async def watch(
        self, match_id: str, seat: int, *, changes: bool = False
    ) -> AsyncIterator[arbitration_pb2.MatchUpdate]:
        """Yield the seat's updates, each with its whole view whatever ``changes`` says:
        the hidden-information check reads each view (``visibility``)."""
        del changes
        recorder = self._recorder
        updates = self._client.watch(match_id, seat)
        try:
            async for update in updates:
                recorder.updates.append(
                    (
                        match_id,
                        seat,
                        update.seq,
                        time.perf_counter(),
                        visibility.shown(update),
                        visibility.chips(update),
                        visibility.addressed_right(update, seat),
                    )
                )
                yield update
        finally:
            if isinstance(updates, AsyncGenerator):
                await updates.aclose()  # closes the socket now

    async def submit(
        self, match_id: str, seat: int, command: game_pb2.Command
    ) -> arbitration_pb2.SubmitReply:
        recorder = self._recorder
        started = time.perf_counter()
        try:
            reply = await self._client.submit(match_id, seat, command)
        except CallError as error:
            reason = error.reason or f"grpc status {error.code}"
            if reason == STALE and self._closing.started:
                # The resign and the bot's own command were sent at once from one seat: the
                # later client_seq can arrive first, and the earlier is then stale.
                reason = CLOSING_STALE
            recorder.refusals[reason] += 1
            raise
        except (aiohttp.ClientError, TimeoutError) as error:
            recorder.errors[f"submit transport: {type(error).__name__}"] += 1
            raise
        except asyncio.CancelledError:
            if not recorder.stopping:  # the bot's own submit timeout
                recorder.errors["submit: no answer within the bot's timeout"] += 1
            raise
        recorder.commands.append((match_id, reply.seq, started, time.perf_counter()))
        return reply
