"""A seat's updates, followed only once the seat is known to be the caller's.

The arbitration's latest update for the seat is the check: it is refused to anyone but
the seat's player (or, for the spectators' view, given to all). Only then is the seat
followed (``followed_matches.py``: the match's subject subscribed, if no stream here
follows it yet), so nothing about a seat is received, queued or held for a caller it
does not belong to. An update published between that answer and the subscription
would be missed, so the latest is asked for once more, after the server has the
subscription (PING answered), and goes out if it is news. It is asked for again, in the
same way, whenever the gateway's NATS link is back after a loss (``FollowedMatches.catch_up``):
what was published meanwhile never came.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from photofinish.arbitration.v1 import arbitration_pb2
from services.gateway.followed_matches import FollowedMatches, OnUpdate, Unfollow

log = logging.getLogger(__name__)

Latest = Callable[[], Awaitable[arbitration_pb2.MatchUpdate]]


@dataclass(frozen=True, slots=True)
class Followed:
    """The seat's first update and, while the match is live, how to stop following it and
    the latest update asked for after it began (None when the match was already over)."""

    first: arbitration_pb2.MatchUpdate
    unfollow: Unfollow | None = None
    caught_up: arbitration_pb2.MatchUpdate | None = None


class _CatchUp:
    """The seat's latest update asked for again and handed on as if published (the stream
    sends it only if it is news), one ask at a time."""

    def __init__(self, on_update: OnUpdate, latest: Latest) -> None:
        self._on_update = on_update
        self._latest = latest
        self._asking: asyncio.Task[None] | None = None

    def __call__(self) -> None:
        if self._asking is None or self._asking.done():
            self._asking = asyncio.create_task(self._ask())

    def cancel(self) -> None:
        if self._asking is not None:
            self._asking.cancel()

    async def _ask(self) -> None:
        try:
            update = await self._latest()
        except Exception as error:  # refused, or no arbitration: the stream goes on as it is
            # The client opens its stream again when the next change does not follow its
            # view (docs/protocol.md).
            log.info("no catch-up for a stream: %r", error)
            return
        self._on_update(update.SerializeToString())


async def follow_checked(
    matches: FollowedMatches, match_id: str, seat: int, on_update: OnUpdate, latest: Latest
) -> Followed:
    """Check the seat with ``latest`` (its refusal propagates), then follow it with
    ``on_update`` and ask for the latest once more (and after each reconnect of the
    gateway's NATS link). The caller calls ``unfollow``."""
    first = await latest()
    if first.status != arbitration_pb2.STATUS_LIVE:
        return Followed(first)
    catch_up = _CatchUp(on_update, latest)
    stop_following = matches.follow(match_id, seat, on_update, catch_up)

    def unfollow() -> None:
        stop_following()
        catch_up.cancel()

    try:
        # A server that does not answer in time: the latest is asked for anyway, and the
        # link subscribes again when it comes back.
        with contextlib.suppress(ConnectionError, TimeoutError):
            await matches.flush()
        return Followed(first, unfollow, await latest())
    except BaseException:
        unfollow()
        raise
