"""Request/reply on a :class:`~services.common.natslink.link.NatsLink`: one inbox, many requests.

Each request's reply subject is ``<inbox>.<n>`` under one subscription (``<inbox>.*``), and
its reply settles its future in the read that brings it: no task per request, no parsing
beyond the subject. A request nobody can answer is settled at once by the server's "no
responders" status (:class:`NoResponders`); one not answered in time, by TimeoutError.
"""

from __future__ import annotations

import asyncio
import itertools

from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink

NO_RESPONDERS = 503


class NoResponders(ConnectionError):
    """Nobody subscribes to the subject the request went to."""


class Requests:
    """Sends requests on a link and hands each reply to its caller."""

    def __init__(self, link: NatsLink) -> None:
        self._link = link
        self._prefix = link.new_inbox()
        self._cut = len(self._prefix) + 1
        self._numbers = itertools.count()
        self._waiting: dict[str, asyncio.Future[Message]] = {}
        self._loop = link.loop
        link.subscribe(f"{self._prefix}.*", self._on_reply)

    def send(
        self, subject: str, payload: bytes, timeout_s: float, headers: bytes = b""
    ) -> asyncio.Future[Message]:
        """Publish a request; the future gets its reply.

        Raises (in the future):
            NoResponders: nobody subscribes to ``subject``.
            TimeoutError: no reply within ``timeout_s``.
        """
        token = str(next(self._numbers))
        reply: asyncio.Future[Message] = self._loop.create_future()
        self._waiting[token] = reply
        self._link.publish(subject, payload, f"{self._prefix}.{token}", headers)
        expiry = self._loop.call_later(timeout_s, self._expire, token, timeout_s)
        reply.add_done_callback(lambda _: expiry.cancel())
        return reply

    def _on_reply(self, message: Message) -> None:
        reply = self._waiting.pop(message.subject[self._cut :], None)
        if reply is None or reply.done():
            return  # given up on, or cancelled by its caller
        if message.status == NO_RESPONDERS:
            reply.set_exception(NoResponders(f"nobody answers on the subject of {message.subject}"))
        else:
            reply.set_result(message)

    def _expire(self, token: str, timeout_s: float) -> None:
        reply = self._waiting.pop(token, None)
        if reply is not None and not reply.done():
            reply.set_exception(TimeoutError(f"no reply within {timeout_s:g} s"))
