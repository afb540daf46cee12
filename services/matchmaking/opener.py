"""Opening a match: draw its id and seed, seat the players, have arbitration open it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from games.bot import Level
from games.registry import Game
from services.common.identity import Player
from services.common.opening import matches
from services.common.opening.matches import MatchId, MatchSpec
from services.matchmaking.broker import Broker
from services.matchmaking.errors import Unavailable
from services.matchmaking.metrics import MATCHES_CREATED, OPEN_FAILURES
from services.matchmaking.rematch_offers import Recent

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Opener:
    """Opens matches through ``broker``; ids and seeds come from the given draws."""

    broker: Broker
    draw_match_id: Callable[[], MatchId] = matches.fresh_match_id
    draw_seed: Callable[[], int] = matches.fresh_seed
    recent: Recent = field(default_factory=Recent)  # the online matches, for rematches

    async def online(self, first: Player, second: Player, game: Game, rated: bool) -> MatchSpec:
        """Return the opened match between two people; ``first`` has waited longer.

        Raises:
            Unavailable: when arbitration did not open it.
        """
        spec = matches.online(first, second, game, rated, self.draw_match_id(), self.draw_seed())
        opened = await self._open(spec)
        self.recent.add(opened)
        return opened

    async def computer(
        self, human: Player, game: Game, level: Level, match_id: MatchId
    ) -> MatchSpec:
        """Return the opened match ``match_id`` of ``human`` against a bot of ``level``.

        Raises:
            Unavailable: when the bot pool offered no bot or arbitration did not open it.
        """
        try:
            bot = await self.broker.bot(game, level)
        except Unavailable as error:
            OPEN_FAILURES.labels(error.reason.value).inc()
            raise
        spec = matches.computer(human, bot, game, level, match_id, self.draw_seed())
        try:
            opened = await self._open(spec)
        except Unavailable:
            self.broker.seat_bot(bot, None)
            raise
        self.broker.seat_bot(bot, opened)
        return opened

    async def hotseat(self, player: Player, game: Game, match_id: MatchId) -> MatchSpec:
        """Return the opened hot-seat match ``match_id`` of ``player`` on one device.

        Raises:
            Unavailable: when arbitration did not open it.
        """
        return await self._open(matches.hotseat(player, game, match_id, self.draw_seed()))

    async def _open(self, spec: MatchSpec) -> MatchSpec:
        fields = {"match_id": spec.match_id, "game": str(spec.game), "mode": str(spec.mode)}
        try:
            await self.broker.open_match(spec)
        except Unavailable as error:
            OPEN_FAILURES.labels(error.reason.value).inc()
            log.warning("match not opened", extra={"fields": {**fields, "why": error.detail}})
            raise
        MATCHES_CREATED.labels(str(spec.mode)).inc()
        log.info("match opened", extra={"fields": {**fields, "rated": spec.rated}})
        return spec
