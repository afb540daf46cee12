"""One match's timeline: when each seat saw which step, and each command's latency."""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter, deque
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from dataclasses import dataclass, field

from clients.arena import ArenaClient
from clients.bots.watching import Arena
from clients.grpcweb import CallError
from clients.play import SocketArena
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2

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


TRANSPORTS = ("socket", "grpc-web")  # how the load's players play: /play, or Watch + Submit


def playing(client: ArenaClient, transport: str) -> Arena:
    """Return the client as the load plays through it: each seat on its play socket, or
    gRPC-web's Watch and Submit (``transport``, one of TRANSPORTS)."""
    return SocketArena(client) if transport == "socket" else client


class Timed:
    """The public API as one seat's bot uses it, noting every update and every answer."""

    def __init__(self, client: Arena, timeline: Timeline, game: str) -> None:
        self._client, self._timeline, self._game = client, timeline, game

    async def watch(
        self, match_id: str, seat: int, *, changes: bool = False
    ) -> AsyncIterator[arbitration_pb2.MatchUpdate]:
        clock = time.perf_counter
        updates = self._client.watch(match_id, seat, changes=changes)
        try:
            async for update in updates:
                self._timeline.saw(seat, update.seq, clock())
                yield update
        finally:
            if isinstance(updates, AsyncGenerator):
                await updates.aclose()  # closes the stream or the socket now

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
