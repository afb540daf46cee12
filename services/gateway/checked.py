"""A seat's updates, followed only once the seat is known to be the caller's.

The arbitration's latest update for the seat is the check: it is refused to anyone but
the seat's player (or, for the spectators' view, given to all). Only then is the seat
followed (``followed_matches.py``: the match's subject subscribed, if no stream here
follows it yet), so nothing about a seat is received, queued or held for a caller it
does not belong to. An update published between that answer and the subscription
would be missed, so the latest is asked for once more, after the server has the
subscription (PING answered), and goes out if it is news.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from photofinish.arbitration.v1 import arbitration_pb2
from services.gateway.followed_matches import FollowedMatches, OnCatchUp, OnUpdate, Unfollow

Latest = Callable[[], Awaitable[arbitration_pb2.MatchUpdate]]


@dataclass(frozen=True, slots=True)
class Followed:
    """The seat's first update and, while the match is live, how to stop following it and
    the latest update asked for after it began (None when the match was already over)."""

    first: arbitration_pb2.MatchUpdate
    unfollow: Unfollow | None = None
    caught_up: arbitration_pb2.MatchUpdate | None = None


async def follow_checked(
    matches: FollowedMatches,
    match_id: str,
    seat: int,
    on_update: OnUpdate,
    latest: Latest,
    on_catch_up: OnCatchUp | None = None,
) -> Followed:
    """Check the seat with ``latest`` (its refusal propagates), then follow it with
    ``on_update`` (and ``on_catch_up``: ``FollowedMatches.follow``) and ask for the latest
    once more. The caller calls ``unfollow``."""
    first = await latest()
    if first.status != arbitration_pb2.STATUS_LIVE:
        return Followed(first)
    unfollow = matches.follow(match_id, seat, on_update, on_catch_up)
    try:
        # A server that does not answer in time: the latest is asked for anyway, and the
        # link subscribes again when it comes back.
        with contextlib.suppress(ConnectionError, TimeoutError):
            await matches.flush()
        return Followed(first, unfollow, await latest())
    except BaseException:
        unfollow()
        raise
