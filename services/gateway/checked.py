"""A seat's updates, followed only once the seat is known to be the caller's.

The arbitration's latest update for the seat is the check: it is refused to anyone but
the seat's player (or, for the spectators' view, given to all). Only then is the seat's
subject subscribed, so nothing about a seat is received, queued or held for a caller
it does not belong to. An update published between that answer and the subscription
would be missed, so the latest is asked for once more, after the server has the
subscription (PING answered), and goes out if it is news.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink

Latest = Callable[[], Awaitable[arbitration_pb2.MatchUpdate]]


@dataclass(frozen=True, slots=True)
class Followed:
    """The seat's first update and, while the match is live, the subscription (its id) and
    the latest update asked for after it (None when the match was already over)."""

    first: arbitration_pb2.MatchUpdate
    sid: int | None = None
    caught_up: arbitration_pb2.MatchUpdate | None = None


async def follow_checked(
    link: NatsLink, subject: str, on_message: Callable[[Message], None], latest: Latest
) -> Followed:
    """Check the seat with ``latest`` (its refusal propagates), then subscribe ``subject``
    to ``on_message`` and ask for the latest once more. The caller unsubscribes ``sid``."""
    first = await latest()
    if first.status != arbitration_pb2.STATUS_LIVE:
        return Followed(first)
    sid = link.subscribe(subject, on_message)
    try:
        # A server that does not answer in time: the latest is asked for anyway, and the
        # link subscribes again when it comes back.
        with contextlib.suppress(ConnectionError, TimeoutError):
            await link.flush()
        return Followed(first, sid, await latest())
    except BaseException:
        link.unsubscribe(sid)
        raise
