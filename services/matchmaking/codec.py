"""Proto messages <-> matchmaking's dataclasses, in one place."""

from __future__ import annotations

from games.bot import Level
from games.codec import LEVELS, level_from_proto
from games.registry import GAMES, Game, by_number
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from services.matchmaking.codes import Code
from services.matchmaking.errors import Malformed, Reason
from services.matchmaking.identity import Player, PlayerId
from services.matchmaking.matches import Assignment, MatchSpec
from services.matchmaking.tickets import Waiting

# What a request naming no game is told it might have named: "spit (1) or bid (2)".
_GAME_CHOICES = " or ".join(f"{game} ({game.number})" for game in GAMES)
_LEVEL_NUMBERS = {level: number for number, level in LEVELS.items()}


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


def encode_player(player: Player) -> events_pb2.Player:
    return events_pb2.Player(player_id=player.id, name=player.name, bot=player.bot)


def decode_player(message: events_pb2.Player) -> Player:
    return Player(PlayerId(message.player_id), message.name, message.bot)


def match_created(spec: MatchSpec) -> events_pb2.MatchCreated:
    """Return the request that asks arbitration to open ``spec``."""
    level = _LEVEL_NUMBERS[spec.bot_level] if spec.bot_level is not None else 0
    return events_pb2.MatchCreated(
        match_id=spec.match_id,
        game=game_pb2.Game.ValueType(spec.game.number),
        players=[encode_player(player) for player in spec.players],
        rated=spec.rated,
        mode=events_pb2.Mode.ValueType(spec.mode.value),
        seed=spec.seed,
        options=game_pb2.Options(pausable=spec.pausable),
        bot_level=game_pb2.Level.ValueType(level),
    )


def bot_request(game: Game, level: Level) -> events_pb2.BotRequest:
    return events_pb2.BotRequest(
        game=game_pb2.Game.ValueType(game.number),
        level=game_pb2.Level.ValueType(_LEVEL_NUMBERS[level]),
    )


def match_assignment(assignment: Assignment) -> matchmaking_pb2.MatchAssignment:
    return matchmaking_pb2.MatchAssignment(
        match_id=assignment.match_id,
        game=game_pb2.Game.ValueType(assignment.game.number),
        seats=list(assignment.seats),
        rated=assignment.rated,
        player_names=list(assignment.player_names),
    )


def queue_update(update: Waiting | Assignment) -> matchmaking_pb2.QueueUpdate:
    if isinstance(update, Waiting):
        return matchmaking_pb2.QueueUpdate(waiting=update.count)
    return matchmaking_pb2.QueueUpdate(match=match_assignment(update))


def challenge_update(update: Code | Assignment) -> matchmaking_pb2.ChallengeUpdate:
    if isinstance(update, Assignment):
        return matchmaking_pb2.ChallengeUpdate(match=match_assignment(update))
    return matchmaking_pb2.ChallengeUpdate(code=update)
