"""Matchmaking's values as proto messages, and requests that name nothing."""

from __future__ import annotations

import grpc
import pytest

from games.bot import Level
from games.registry import BID, SPIT
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.common.identity import Player, PlayerId
from services.common.opening import matches
from services.common.opening.codec import decode_player, encode_player, match_created
from services.common.opening.matches import MatchId
from services.matchmaking import codec
from services.matchmaking.errors import (
    Forbidden,
    Malformed,
    MatchmakingError,
    NotFound,
    Reason,
    Refused,
    Superseded,
    Unauthenticated,
    Unavailable,
)
from services.matchmaking.status import CODES, rejection
from services.matchmaking.tickets import Waiting
from tests.matchmaking.tickets import player

ROBO = Player(PlayerId("bot-1"), "Robo", bot=True)


def test_a_match_against_the_computer_is_asked_for_with_every_field() -> None:
    spec = matches.computer(player("Ann"), ROBO, SPIT, Level.MEDIUM, MatchId("m1"), 2**63 - 1)
    created = match_created(spec)
    assert created.match_id == "m1" and created.game == game_pb2.GAME_SPIT
    assert [p.player_id for p in created.players] == [p.id for p in spec.players]
    assert [p.bot for p in created.players] == [p.bot for p in spec.players]
    assert created.mode == events_pb2.MODE_COMPUTER and not created.rated
    assert created.seed == 2**63 - 1 and created.options.pausable
    assert created.bot_level == game_pb2.LEVEL_MEDIUM


def test_a_match_between_people_names_no_bot_level() -> None:
    spec = matches.online(player("Ann"), player("Bob"), BID, True, MatchId("m2"), 3)
    created = match_created(spec)
    assert created.bot_level == game_pb2.LEVEL_UNSPECIFIED and created.rated
    assert created.mode == events_pb2.MODE_ONLINE and not created.options.pausable


def test_players_round_trip() -> None:
    assert decode_player(encode_player(ROBO)) == ROBO


def test_updates_are_encoded_in_their_oneof() -> None:
    spec = matches.hotseat(player("Ann"), SPIT, MatchId("m3"), 1)
    mine = matches.assignment(spec, PlayerId("ann"))
    assert codec.queue_update(Waiting(3)).waiting == 3
    assert list(codec.queue_update(mine).match.seats) == [0, 1]
    assert codec.challenge_update(mine).match.match_id == "m3"


@pytest.mark.parametrize("value", [0, 3, -1])
def test_a_request_for_no_game_is_malformed(value: int) -> None:
    with pytest.raises(Malformed) as error:
        codec.decode_game(value)
    assert error.value.reason is Reason.NO_SUCH_GAME


def test_a_request_for_no_level_is_malformed() -> None:
    with pytest.raises(Malformed) as error:
        codec.decode_level(0)
    assert error.value.reason is Reason.NO_SUCH_LEVEL


def test_every_kind_of_error_has_its_status_code() -> None:
    kinds = {Unauthenticated, Malformed, NotFound, Forbidden, Refused, Superseded, Unavailable}
    assert set(CODES) == kinds == set(MatchmakingError.__subclasses__())
    sent = rejection(NotFound(Reason.NO_SUCH_CHALLENGE, "no open challenge has the code 'X'"))
    assert (sent.code, sent.reason) == (grpc.StatusCode.NOT_FOUND, "no_such_challenge")
    assert sent.message == "no open challenge has the code 'X'"
