"""Proto messages of opening a match: the request to arbitration and what players are told."""

from __future__ import annotations

from games.bot import Level
from games.codec import LEVELS
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from services.common.identity import Player, PlayerId
from services.common.opening.matches import Assignment, MatchSpec

_LEVEL_NUMBERS = {level: number for number, level in LEVELS.items()}


def level_to_proto(level: Level | None) -> game_pb2.Level.ValueType:
    """Return the wire number of a computer player's ``level`` (LEVEL_UNSPECIFIED for None)."""
    number = game_pb2.LEVEL_UNSPECIFIED if level is None else _LEVEL_NUMBERS[level]
    return game_pb2.Level.ValueType(number)


def encode_player(player: Player) -> events_pb2.Player:
    return events_pb2.Player(
        player_id=player.id, name=player.name, bot=player.bot, guest=player.guest
    )


def decode_player(message: events_pb2.Player) -> Player:
    return Player(PlayerId(message.player_id), message.name, message.bot, message.guest)


def match_created(spec: MatchSpec) -> events_pb2.MatchCreated:
    """Return the request that asks arbitration to open ``spec``."""
    return events_pb2.MatchCreated(
        match_id=spec.match_id,
        game=game_pb2.Game.ValueType(spec.game.number),
        players=[encode_player(player) for player in spec.players],
        rated=spec.rated,
        mode=events_pb2.Mode.ValueType(spec.mode.value),
        seed=spec.seed,
        options=game_pb2.Options(pausable=spec.pausable),
        bot_level=level_to_proto(spec.bot_level),
        tournament_id=spec.tournament_id,
        tournament_name=spec.tournament_name,
    )


def match_assignment(assignment: Assignment) -> matchmaking_pb2.MatchAssignment:
    """Return what one player is told of their match (matchmaking's and tournaments' reply)."""
    return matchmaking_pb2.MatchAssignment(
        match_id=assignment.match_id,
        game=game_pb2.Game.ValueType(assignment.game.number),
        seats=list(assignment.seats),
        rated=assignment.rated,
        player_names=list(assignment.player_names),
    )
