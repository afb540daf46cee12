"""A queued player's rating in a game, asked of the ratings service over gRPC.

A queue must never stop because ratings is down or slow: when no rating comes back within
``timeout_s`` (no address configured, the service unreachable, an error) the player is
queued as a newcomer at 1500, the fallback is logged and counted, and they are paired as
such. The worst that happens is a less even match, never a queue that cannot pair.
"""

from __future__ import annotations

import logging

import grpc

from games.registry import Game
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common.identity import PlayerId
from services.matchmaking.metrics import RATING_FALLBACKS

# Glicko-2's starting rating (services/ratings/glicko2.py): what ratings reports for a
# player who never played a rated game, so a fallback treats them the same way.
NEWCOMER_RATING = 1500.0

log = logging.getLogger(__name__)


async def newcomer_rating(player_id: PlayerId, game: Game) -> float:
    """Return the newcomer's rating for everyone: matchmaking without a ratings service."""
    return NEWCOMER_RATING


async def never_barred(player_id: PlayerId, game: Game) -> bool:
    """Bar nobody: matchmaking without a ratings service."""
    return False


class RatingsLookup:
    """Asks ``GetRating`` on one channel, falling back to the newcomer's rating."""

    def __init__(self, channel: grpc.aio.Channel, timeout_s: float) -> None:
        self._stub = ratings_pb2_grpc.RatingsStub(channel)
        self._timeout_s = timeout_s

    async def __call__(self, player_id: PlayerId, game: Game) -> float:
        """Return ``player_id``'s rating in ``game``; the newcomer's when ratings fails."""
        code = game_pb2.Game.ValueType(game.number)
        request = ratings_pb2.GetRatingRequest(player_id=player_id, game=code)
        try:
            reply = await self._stub.GetRating(request, timeout=self._timeout_s)
        except grpc.aio.AioRpcError as error:
            RATING_FALLBACKS.labels(error.code().name.lower()).inc()
            fields = {"player_id": player_id, "game": str(game), "code": error.code().name}
            log.warning("no rating from ratings; queued at 1500", extra={"fields": fields})
            return NEWCOMER_RATING
        return reply.rating

    async def barred(self, player_id: PlayerId, game: Game) -> bool:
        """Return whether ``player_id`` was marked for unfair play (no rated games).

        Unanswered, the player is let through: ratings then counts none of a marked
        account's rated games (docs/fair-play.md), so nothing unfair is rated.
        """
        code = game_pb2.Game.ValueType(game.number)
        request = ratings_pb2.GetRatingRequest(player_id=player_id, game=code)
        try:
            reply = await self._stub.GetRating(request, timeout=self._timeout_s)
        except grpc.aio.AioRpcError as error:
            fields = {"player_id": player_id, "code": error.code().name}
            log.warning("no answer on barring from ratings; let through", extra={"fields": fields})
            return False
        return reply.barred
