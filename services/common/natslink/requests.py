"""Request/reply on a :class:`~services.common.natslink.link.NatsLink`: one inbox, many requests.

Each request's reply subject is ``<inbox>.<n>`` under one subscription (``<inbox>.*``), and
its reply is handed to its caller in the read that brings it: to a callback
(:meth:`Requests.send_then`), or settling a future (:meth:`Requests.send`). No task per
request, no parsing beyond the subject. A request nobody can answer is settled at once by
the server's "no responders" status (:class:`NoResponders`); one not answered in time,
by TimeoutError.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable

from services.common.futures import settling
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink

NO_RESPONDERS = 503

# Called once with the reply, or with the error that stands for it.
Then = Callable[[Message | BaseException], None]


class NoResponders(ConnectionError):
    """Nobody subscribes to the subject the request went to."""


class Requests:
    """Sends requests on a link and hands each reply to its caller."""

    def __init__(self, link: NatsLink) -> None:
        self._link = link
        self._loop = link.loop
        self._prefix = link.new_inbox()
        self._cut = len(self._prefix) + 1
        self._numbers = itertools.count()
        self._waiting: dict[str, tuple[Then, asyncio.TimerHandle]] = {}
        link.subscribe(f"{self._prefix}.*", self._on_reply)

    @property
    def link(self) -> NatsLink:
        """Return the link the requests go out on (for what goes with them unanswered)."""
        return self._link

    def send_then(
        self, subject: str, payload: bytes, timeout_s: float, then: Then, headers: bytes = b""
    ) -> None:
        """Publish a request; ``then`` gets its reply, or NoResponders, or TimeoutError.

        It leaves at once, with whatever the link holds: somebody waits for its reply, and
        held for the messages that follow (the link's coalescing) it would keep them
        waiting as long (a log append, a direct rules call, a replay's boards).
        """
        self._link.publish(subject, payload, self.expect(timeout_s, then), headers)
        self._link.send_now()

    def expect(self, timeout_s: float, then: Then) -> str:
        """Return a new reply subject of this inbox; ``then`` gets the one message sent to
        it, or TimeoutError. For a request whose reply subject travels another way (a
        stored command names it in a header)."""
        token = str(next(self._numbers))
        expiry = self._loop.call_later(timeout_s, self._expire, token, timeout_s)
        self._waiting[token] = (then, expiry)
        return f"{self._prefix}.{token}"

    def send(
        self, subject: str, payload: bytes, timeout_s: float, headers: bytes = b""
    ) -> asyncio.Future[Message]:
        """Publish a request; the future gets its reply (or the error, as ``send_then``)."""
        reply: asyncio.Future[Message] = self._loop.create_future()
        self.send_then(subject, payload, timeout_s, settling(reply), headers)
        return reply

    def _on_reply(self, message: Message) -> None:
        waiting = self._waiting.pop(message.subject[self._cut :], None)
        if waiting is None:
            return  # given up on
        then, expiry = waiting
        expiry.cancel()
        if message.status == NO_RESPONDERS:
            then(NoResponders(f"nobody answers on the subject of {message.subject}"))
        else:
            then(message)

    def _expire(self, token: str, timeout_s: float) -> None:
        waiting = self._waiting.pop(token, None)
        if waiting is not None:
            waiting[0](TimeoutError(f"no reply within {timeout_s:g} s"))
