"""Following one seat's updates across lost streams: reconnect with backoff, resume.

The gateway's Watch begins with the latest update and then sends one per change, so a
fresh stream after a loss (a gateway restart, a dropped connection) resumes exactly: the
seat sees the current view, and nothing older is delivered twice out of order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

import aiohttp
from google.protobuf.message import DecodeError

from clients.grpcweb import CallError
from clients.kept_view import ChangeMissed
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from wire.grpcweb.errors import MalformedRequest
from wire.grpcweb.status import Code

log = logging.getLogger("bots")

M = TypeVar("M")

# gRPC codes that no retry can cure: the match is unknown (evicted long after its end),
# the seat is not ours, the token is bad, the request is wrong.
_FATAL_CODES = frozenset(
    {Code.INVALID_ARGUMENT, Code.NOT_FOUND, Code.PERMISSION_DENIED, Code.UNAUTHENTICATED}
)


class Arena(Protocol):
    """What a bot needs of the public API (``clients.arena.ArenaClient`` is one)."""

    def watch(
        self, match_id: str, seat: int, *, changes: bool = False
    ) -> AsyncIterator[arbitration_pb2.MatchUpdate]:
        """Yield the seat's updates, each with its whole view; with ``changes``, as the
        server sent them (most with a change in place of a view: ``KeptView.keep``)."""
        ...

    async def submit(
        self, match_id: str, seat: int, command: game_pb2.Command
    ) -> arbitration_pb2.SubmitReply: ...


class WatchLost(Exception):
    """The seat's updates cannot be followed any more; the message says why."""


@dataclass(frozen=True, slots=True)
class Reconnect:
    """How a lost stream is retried: jittered exponential backoff, then giving up.

    ``idle_s``: a stream silent this long is treated as lost (a half-open connection
    sends nothing and never fails); reconnecting costs one update, so it is harmless.
    """

    first_s: float = 0.2
    max_s: float = 5.0
    give_up_s: float = 300.0
    idle_s: float = 90.0

    def delay_s(self, attempt: int, rng: random.Random) -> float:
        """Return the wait before reconnect ``attempt`` (from 0), jittered so that hundreds
        of seats cut off by one gateway restart do not all come back at once."""
        return min(self.max_s, self.first_s * 2.0**attempt) * (0.5 + rng.random() / 2)


async def follow(
    arena: Arena,
    match_id: str,
    seat: int,
    deliver: Callable[[arbitration_pb2.MatchUpdate], None],
    reconnect: Reconnect,
    rng: random.Random,
) -> None:
    """Pass each update of ``seat`` to ``deliver``, in order, until one is not LIVE: as the
    server sent it, most with a change in place of a view (``KeptView.keep``); each new
    stream's first with a whole one. When ``deliver`` raises ``ChangeMissed`` (a change
    did not follow the last), the stream is opened again at once.

    Raises:
        WatchLost: when the server says the seat cannot be watched, or the stream stays
            lost for longer than ``reconnect.give_up_s``.
    """
    last_seq, attempt = -1, 0
    lost_since: float | None = None
    while True:
        try:
            async with contextlib.aclosing(
                _within(arena.watch(match_id, seat, changes=True), reconnect.idle_s)
            ) as updates:
                async for update in updates:
                    attempt, lost_since = 0, None
                    if update.seq < last_seq:
                        continue  # an older update can only be a late duplicate
                    last_seq = update.seq
                    deliver(update)
                    if update.status != arbitration_pb2.STATUS_LIVE:
                        return
            why = "the stream ended while the match is live"
        except CallError as error:
            if error.code in _FATAL_CODES:
                raise WatchLost(f"{error.reason or error.code}: {error.message}") from error
            why = f"{error.reason or error.code}: {error.message}"
        except (aiohttp.ClientError, TimeoutError) as error:
            why = f"{type(error).__name__}: {error}"
        except (MalformedRequest, DecodeError) as error:
            why = f"a garbled stream (a connection cut mid-frame?): {error}"
        except ChangeMissed as missed:  # ``deliver``'s: the stream again at once, whole
            fields = {"match": match_id, "seat": seat, "why": str(missed)}
            log.info("a change missed; watching again", extra={"fields": fields})
            continue
        now = time.monotonic()
        lost_since = now if lost_since is None else lost_since
        if now - lost_since > reconnect.give_up_s:
            raise WatchLost(f"no stream for {reconnect.give_up_s:g} s: {why}")
        delay = reconnect.delay_s(attempt, rng)
        attempt += 1
        fields = {"match": match_id, "seat": seat, "why": why, "retry_s": round(delay, 3)}
        log.info("watch lost; reconnecting", extra={"fields": fields})
        await asyncio.sleep(delay)


async def _within(stream: AsyncIterator[M], idle_s: float) -> AsyncGenerator[M, None]:
    """Yield ``stream``'s items; raise TimeoutError when none comes for ``idle_s``."""
    try:
        while True:
            try:
                async with asyncio.timeout(idle_s):  # not wait_for: see SeatPlayer._sleep
                    item = await anext(stream)
            except StopAsyncIteration:
                return
            yield item
    finally:
        if isinstance(stream, AsyncGenerator):
            await stream.aclose()
