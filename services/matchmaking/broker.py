"""Requests to the services that open matches: arbitration over NATS, the bot pools on
their own streams (services/matchmaking/pools.py).

When nobody answers (no responders, a timeout, a lost connection, a reply that makes no
sense) the caller is told UNAVAILABLE with the reason; nothing is retried behind their back.
"""

from __future__ import annotations

from typing import Protocol

from nats.aio.client import Client

from games.bot import Level
from games.registry import Game
from services.common.identity import Player
from services.common.opening.matches import MatchSpec
from services.common.opening.request import NatsArbitration, NoAnswer
from services.matchmaking.errors import Reason, Unavailable
from services.matchmaking.pools import Pools

ASKER = "matchmaking"


class Broker(Protocol):
    """The questions matchmaking asks other services, and what it tells the bot pools."""

    async def open_match(self, spec: MatchSpec) -> None:
        """Return once an arbitration instance has opened ``spec``.

        Raises:
            Unavailable: when no arbitration instance opened it.
        """

    async def bot(self, game: Game, level: Level) -> Player:
        """Return a computer player for ``game`` at ``level``.

        Raises:
            Unavailable: when no bot pool offered one.
        """

    def seat_bot(self, bot: Player, spec: MatchSpec | None) -> None:
        """Tell ``bot``'s pool that its match ``spec`` opened (None: it never will)."""


class ServicesBroker:
    """:class:`Broker` over a NATS connection (arbitration) and the connected pools."""

    def __init__(self, nc: Client, pools: Pools, timeout_s: float) -> None:
        self._arbitration = NatsArbitration(nc, timeout_s, ASKER)
        self._pools = pools

    async def open_match(self, spec: MatchSpec) -> None:
        try:
            await self._arbitration.open_match(spec)
        except NoAnswer as error:
            raise Unavailable(Reason.NO_ARBITRATION, error.detail) from None

    async def bot(self, game: Game, level: Level) -> Player:
        return await self._pools.bot(game, level)

    def seat_bot(self, bot: Player, spec: MatchSpec | None) -> None:
        self._pools.seat(bot, spec)
