"""Asking another service over NATS, and asking an arbitration instance to open a match.

Each is a NATS request/reply on a subject named in wire/subjects.py. When no
usable reply comes (no responders, a timeout, a lost connection, a reply that makes no
sense) the asker gets :class:`NoAnswer` saying why, and each service turns that into its
own error; nothing is retried behind the caller's back.
"""

from __future__ import annotations

from typing import Protocol

import nats.errors
from google.protobuf.message import DecodeError
from nats.aio.client import Client

from photofinish.events.v1 import events_pb2
from services.common.opening.codec import match_created
from services.common.opening.matches import MatchSpec
from wire import subjects


class NoAnswer(Exception):
    """No usable reply came; ``detail`` says what was asked for and what went wrong."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


async def ask(
    nc: Client, subject: str, request: bytes, timeout_s: float, why: str, asker: str
) -> bytes:
    """Return the reply's payload to ``request`` on ``subject``.

    ``why`` opens the detail of a failure ("no arbitration instance opened match m1");
    ``asker`` names the service in it ("matchmaking has lost NATS").

    Raises:
        NoAnswer: when no reply came.
    """
    try:
        reply = await nc.request(subject, request, timeout=timeout_s)
    except nats.errors.NoRespondersError:
        raise NoAnswer(f"{why}: nothing listens on {subject}") from None
    except nats.errors.TimeoutError:
        raise NoAnswer(f"{why}: no answer on {subject} within {timeout_s:g} s") from None
    except (nats.errors.ConnectionClosedError, nats.errors.ConnectionReconnectingError):
        raise NoAnswer(f"{why}: {asker} has lost NATS") from None
    return reply.data


class Arbitration(Protocol):
    """Whoever opens matches: in production, one arbitration instance of the queue group."""

    async def open_match(self, spec: MatchSpec) -> None:
        """Return once an arbitration instance has opened ``spec``.

        Raises:
            NoAnswer: when no arbitration instance opened it.
        """


class NatsArbitration:
    """:class:`Arbitration` over a NATS connection (MatchCreated -> MatchOpened)."""

    def __init__(self, nc: Client, timeout_s: float, asker: str) -> None:
        self._nc = nc
        self._timeout_s = timeout_s
        self._asker = asker

    async def open_match(self, spec: MatchSpec) -> None:
        request = match_created(spec).SerializeToString()
        why = f"no arbitration instance opened match {spec.match_id}"
        subject = subjects.MATCH_CREATE
        data = await ask(self._nc, subject, request, self._timeout_s, why, self._asker)
        try:
            opened = events_pb2.MatchOpened.FromString(data)
        except DecodeError:
            raise NoAnswer(f"{why}: unreadable reply") from None
        if opened.match_id != spec.match_id:
            raise NoAnswer(f"{why}: the reply names match {opened.match_id!r}")
