"""Ended accounts' sessions, on every gateway: their tokens refused, their streams closed.

The gateway that ends a session (or learns that one ended) publishes ``SessionsEnded`` on
NATS; every gateway, itself included, hears it, stops accepting the sessions' access
tokens and closes what they hold open here: server streams and play sockets.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence

from nats.aio.client import Client
from nats.aio.msg import Msg

from photofinish.events.v1 import events_pb2
from wire.subjects import SESSIONS_ENDED

log = logging.getLogger("gateway.sessions")

Close = Callable[[], object]  # what it returns is ignored


class OpenSessions:
    """What each account session holds open on this gateway, and how to close it."""

    def __init__(self) -> None:
        self._open: defaultdict[str, dict[int, Close]] = defaultdict(dict)
        self._next = 0

    @contextlib.contextmanager
    def hold(self, session_id: str, close: Close) -> Iterator[None]:
        """Keep ``close`` for the block: ending ``session_id`` meanwhile calls it ('': a
        guest, nothing kept)."""
        if not session_id:
            yield
            return
        self._next += 1
        number = self._next
        self._open[session_id][number] = close
        try:
            yield
        finally:
            held = self._open.get(session_id)
            if held is not None:
                held.pop(number, None)
                if not held:
                    del self._open[session_id]

    def close(self, session_ids: Sequence[str]) -> int:
        """Close everything the sessions hold here; return how many things were closed."""
        closed = 0
        for session_id in session_ids:
            for close in list(self._open.pop(session_id, {}).values()):
                close()
                closed += 1
        return closed

    def count(self) -> int:
        """How many things the sessions hold open here."""
        return sum(len(held) for held in self._open.values())


class EndedSessions:
    """Publishes ended sessions to every gateway, and acts on them when they arrive."""

    def __init__(
        self,
        nc: Client,
        end_tokens: Callable[[str, float], None],
        open_sessions: OpenSessions,
        token_ttl_s: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._nc = nc
        self._end_tokens = end_tokens
        self._open = open_sessions
        self._ttl_s = token_ttl_s
        self._clock = clock

    async def start(self) -> None:
        await self._nc.subscribe(SESSIONS_ENDED, cb=self._heard)
        await self._nc.flush()

    async def announce(self, session_ids: Sequence[str]) -> None:
        """Tell every gateway; act here at once too, not only when the echo comes back."""
        if not session_ids:
            return
        until = self._clock() + self._ttl_s
        self._act(session_ids, until)
        message = events_pb2.SessionsEnded(session_ids=session_ids, until_unix_s=int(until) + 1)
        await self._nc.publish(SESSIONS_ENDED, message.SerializeToString())

    async def _heard(self, msg: Msg) -> None:
        try:
            ended = events_pb2.SessionsEnded.FromString(msg.data)
        except Exception:  # a malformed message is nobody's session
            log.warning("unreadable SessionsEnded message ignored")
            return
        self._act(tuple(ended.session_ids), float(ended.until_unix_s))

    def _act(self, session_ids: Sequence[str], until_s: float) -> None:
        for session_id in session_ids:
            self._end_tokens(session_id, until_s)
        closed = self._open.close(session_ids)
        log.info(
            "sessions ended",
            extra={"fields": {"sessions": len(session_ids), "closed_here": closed}},
        )
