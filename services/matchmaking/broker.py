"""Requests to the services that open matches: arbitration and the bot pool, over NATS.

Both are NATS requests (services/common/opening/request.py). When nobody answers (no
responders, a timeout, a lost connection, a reply that makes no sense) the caller is
told UNAVAILABLE with the reason; nothing is retried behind their back.
"""

from __future__ import annotations

from typing import Protocol

from google.protobuf.message import DecodeError
from nats.aio.client import Client

from games.bot import Level
from games.registry import Game
from photofinish.events.v1 import events_pb2
from services.common.identity import Player
from services.common.opening.codec import decode_player
from services.common.opening.matches import MatchSpec
from services.common.opening.request import NatsArbitration, NoAnswer, ask
from services.matchmaking import codec
from services.matchmaking.errors import Reason, Unavailable
from wire import subjects

ASKER = "matchmaking"


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
        self._arbitration = NatsArbitration(nc, timeout_s, ASKER)

    async def open_match(self, spec: MatchSpec) -> None:
        try:
            await self._arbitration.open_match(spec)
        except NoAnswer as error:
            raise Unavailable(Reason.NO_ARBITRATION, error.detail) from None

    async def bot(self, game: Game, level: Level) -> Player:
        request = codec.bot_request(game, level).SerializeToString()
        why = f"the bot pool offered no {level.value} {game} player"
        subject = subjects.BOTS_REQUEST
        try:
            data = await ask(self._nc, subject, request, self._timeout_s, why, ASKER)
        except NoAnswer as error:
            raise Unavailable(Reason.NO_BOT_POOL, error.detail) from None
        try:
            reply = events_pb2.BotReply.FromString(data)
        except DecodeError:
            raise Unavailable(Reason.NO_BOT_POOL, f"{why}: unreadable reply") from None
        if not reply.player.player_id:
            raise Unavailable(Reason.NO_BOT_POOL, f"{why}: the reply names no player")
        return decode_player(reply.player)
