"""Requests to the services that open matches: arbitration and the bot pool, over NATS.

Both are NATS request/reply on subjects named in wire/subjects.py. When nobody
answers (no responders, a timeout, a lost connection, a reply that makes no sense) the
caller is told UNAVAILABLE with the reason; nothing is retried behind their back.
"""

from __future__ import annotations

from typing import Protocol

import nats.errors
from google.protobuf.message import DecodeError
from nats.aio.client import Client

from games.bot import Level
from games.registry import Game
from photofinish.events.v1 import events_pb2
from services.matchmaking import codec
from services.matchmaking.errors import Reason, Unavailable
from services.matchmaking.identity import Player
from services.matchmaking.matches import MatchSpec
from wire import subjects


class Broker(Protocol):
    """The two questions matchmaking asks other services."""

    async def open_match(self, spec: MatchSpec) -> None:
        """Return once an arbitration instance has opened ``spec``.

        Raises:
            Unavailable: when no arbitration instance opened it.
        """

    async def bot(self, game: Game, level: Level) -> Player:
        """Return a computer player for ``game`` at ``level``.

        Raises:
            Unavailable: when the bot pool offered none.
        """


class NatsBroker:
    """:class:`Broker` over a NATS connection."""

    def __init__(self, nc: Client, timeout_s: float) -> None:
        self._nc = nc
        self._timeout_s = timeout_s

    async def open_match(self, spec: MatchSpec) -> None:
        request = codec.match_created(spec).SerializeToString()
        why = f"no arbitration instance opened match {spec.match_id}"
        data = await self._ask(subjects.MATCH_CREATE, request, Reason.NO_ARBITRATION, why)
        try:
            opened = events_pb2.MatchOpened.FromString(data)
        except DecodeError:
            raise Unavailable(Reason.NO_ARBITRATION, f"{why}: unreadable reply") from None
        if opened.match_id != spec.match_id:
            detail = f"{why}: the reply names match {opened.match_id!r}"
            raise Unavailable(Reason.NO_ARBITRATION, detail)

    async def bot(self, game: Game, level: Level) -> Player:
        request = codec.bot_request(game, level).SerializeToString()
        why = f"the bot pool offered no {level.value} {game} player"
        data = await self._ask(subjects.BOTS_REQUEST, request, Reason.NO_BOT_POOL, why)
        try:
            reply = events_pb2.BotReply.FromString(data)
        except DecodeError:
            raise Unavailable(Reason.NO_BOT_POOL, f"{why}: unreadable reply") from None
        if not reply.player.player_id:
            raise Unavailable(Reason.NO_BOT_POOL, f"{why}: the reply names no player")
        return codec.decode_player(reply.player)

    async def _ask(self, subject: str, request: bytes, reason: Reason, why: str) -> bytes:
        """Return the reply's payload to ``request`` on ``subject``.

        Raises:
            Unavailable: with ``reason`` when no reply came.
        """
        try:
            reply = await self._nc.request(subject, request, timeout=self._timeout_s)
        except nats.errors.NoRespondersError:
            raise Unavailable(reason, f"{why}: nothing listens on {subject}") from None
        except nats.errors.TimeoutError:
            detail = f"{why}: no answer on {subject} within {self._timeout_s:g} s"
            raise Unavailable(reason, detail) from None
        except (nats.errors.ConnectionClosedError, nats.errors.ConnectionReconnectingError):
            raise Unavailable(reason, f"{why}: matchmaking has lost NATS") from None
        return reply.data
