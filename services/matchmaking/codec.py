"""Proto messages <-> matchmaking's dataclasses, in one place.

The messages of opening a match, which tournaments send too, are in
services/common/opening/codec.py.
"""

from __future__ import annotations

from games.bot import Level
from games.codec import level_from_proto
from games.registry import GAMES, Game, by_number
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from services.common.opening.codec import level_to_proto, match_assignment
from services.common.opening.matches import Assignment
from services.matchmaking.codes import Code
from services.matchmaking.errors import Malformed, Reason
from services.matchmaking.rematch_offers import Standing
from services.matchmaking.tickets import Waiting

# What a request naming no game is told it might have named: "spit (1) or bid (2)".
_GAME_CHOICES = " or ".join(f"{game} ({game.number})" for game in GAMES)


def decode_game(value: int) -> Game:
    """Return the game a request names.

    Raises:
        Malformed: when it names no game (unspecified or unknown).
    """
    game = by_number(value)
    if game is None:
        raise Malformed(Reason.NO_SUCH_GAME, f"game {value!r} is not {_GAME_CHOICES}")
    return game


def decode_level(value: int) -> Level:
    """Return the bot level a request names.

    Raises:
        Malformed: when it names no level (unspecified or unknown).
    """
    level = level_from_proto(value)
    if level is None:
        raise Malformed(Reason.NO_SUCH_LEVEL, f"level {value!r} is not 1, 2 or 3")
    return level


def bot_request(game: Game, level: Level) -> events_pb2.BotRequest:
    return events_pb2.BotRequest(
        game=game_pb2.Game.ValueType(game.number), level=level_to_proto(level)
    )


def queue_update(update: Waiting | Assignment) -> matchmaking_pb2.QueueUpdate:
    if isinstance(update, Waiting):
        return matchmaking_pb2.QueueUpdate(waiting=update.count)
    return matchmaking_pb2.QueueUpdate(match=match_assignment(update))


def challenge_update(update: Code | Assignment) -> matchmaking_pb2.ChallengeUpdate:
    if isinstance(update, Assignment):
        return matchmaking_pb2.ChallengeUpdate(match=match_assignment(update))
    return matchmaking_pb2.ChallengeUpdate(code=update)


def rematch_update(standing: Standing) -> matchmaking_pb2.RematchUpdate:
    update = matchmaking_pb2.RematchUpdate(
        you_offer=standing.you_offer,
        opponent_offers=standing.opponent_offers,
        opponent_here=standing.opponent_here,
    )
    if standing.match is not None:
        update.match.CopyFrom(match_assignment(standing.match))
    return update
