"""Results and requests decoded from protobuf; what cannot be a result is refused by kind."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.registry import BID, GAMES, SPIT
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2
from services.ratings.codec import (
    decode_history_request,
    decode_ladder_request,
    decode_rating_request,
    decode_result,
    encode_result,
    result_subject,
)
from services.ratings.errors import BadRequest, Malformed, Reason
from services.ratings.model import (
    Finished,
    MatchId,
    MatchResult,
    Mode,
    Player,
    PlayerId,
    Voided,
)
from wire.subjects import RESULTS_FINISHED, RESULTS_VOIDED

ids = st.text(min_size=1, max_size=12)
# bot and guest; ``deleted`` is the store's to set, never on the wire.
players = st.builds(Player, ids.map(PlayerId), st.text(max_size=12), st.booleans(), st.booleans())
seats = st.tuples(players, players).filter(lambda s: s[0].player_id != s[1].player_id)
finished = st.builds(
    Finished,
    ids.map(MatchId),
    st.sampled_from(GAMES),
    seats,
    st.integers(0, 1),
    st.booleans(),
    st.sampled_from(Mode),
)
voided = st.builds(Voided, ids.map(MatchId), st.sampled_from(GAMES), seats, st.text(), st.text())


@given(st.one_of(finished, voided))
def test_results_round_trip_through_their_subject_and_payload(result: MatchResult) -> None:
    assert decode_result(result_subject(result), encode_result(result)) == result


def _finished(**fields: object) -> bytes:
    message = events_pb2.MatchFinished(
        match_id="m1",
        game=game_pb2.GAME_BID,
        players=[events_pb2.Player(player_id="ann"), events_pb2.Player(player_id="bob")],
        rated=True,
        mode=events_pb2.MODE_ONLINE,
        outcome=game_pb2.Outcome(winner=1),
    )
    for name, value in fields.items():
        if name == "players":
            del message.players[:]
            message.players.extend(value)  # type: ignore[arg-type]
        elif name == "outcome":
            message.outcome.CopyFrom(value)  # type: ignore[arg-type]
        else:
            setattr(message, name, value)
    return message.SerializeToString()


@pytest.mark.parametrize(
    ("subject", "payload", "reason"),
    [
        (RESULTS_FINISHED, b"\xff\xff\xff", Reason.UNDECODABLE),
        ("pf.results.other", _finished(), Reason.UNKNOWN_SUBJECT),
        (RESULTS_FINISHED, _finished(match_id=""), Reason.NO_MATCH_ID),
        (RESULTS_FINISHED, _finished(game=game_pb2.GAME_UNSPECIFIED), Reason.NO_SUCH_GAME),
        (RESULTS_FINISHED, _finished(game=7), Reason.NO_SUCH_GAME),
        (
            RESULTS_FINISHED,
            _finished(players=[events_pb2.Player(player_id="ann")]),
            Reason.NOT_TWO_PLAYERS,
        ),
        (
            RESULTS_FINISHED,
            _finished(players=[events_pb2.Player(player_id="ann"), events_pb2.Player()]),
            Reason.NO_PLAYER_ID,
        ),
        (RESULTS_FINISHED, _finished(outcome=game_pb2.Outcome(winner=2)), Reason.NO_SUCH_WINNER),
        (
            RESULTS_FINISHED,
            _finished(
                players=[events_pb2.Player(player_id="ann"), events_pb2.Player(player_id="ann")]
            ),
            Reason.SELF_PLAY,
        ),
        (
            RESULTS_VOIDED,
            events_pb2.MatchVoided(match_id="m1").SerializeToString(),
            Reason.NO_SUCH_GAME,
        ),
    ],
)
def test_what_cannot_be_a_result_is_malformed_with_its_reason(
    subject: str, payload: bytes, reason: Reason
) -> None:
    with pytest.raises(Malformed) as error:
        decode_result(subject, payload)
    assert error.value.reason is reason


def test_a_player_may_meet_themselves_when_nothing_is_rated() -> None:
    same = [events_pb2.Player(player_id="ann"), events_pb2.Player(player_id="ann")]
    result = decode_result(RESULTS_FINISHED, _finished(players=same, mode=events_pb2.MODE_HOTSEAT))
    assert isinstance(result, Finished) and not result.changes_ratings


def test_an_unknown_mode_is_read_as_unspecified_and_so_unrated() -> None:
    result = decode_result(RESULTS_FINISHED, _finished(mode=9))
    assert isinstance(result, Finished)
    assert result.mode is Mode.UNSPECIFIED and not result.changes_ratings


def test_requests_default_their_limit_and_refuse_what_cannot_exist() -> None:
    assert decode_ladder_request(ratings_pb2.GetLadderRequest(game=game_pb2.GAME_SPIT)) == (
        SPIT,
        50,
        None,
    )
    around = ratings_pb2.GetLadderRequest(game=game_pb2.GAME_BID, limit=7, around_player_id="ann")
    assert decode_ladder_request(around) == (BID, 7, "ann")
    with pytest.raises(BadRequest) as error:
        decode_ladder_request(ratings_pb2.GetLadderRequest(game=game_pb2.GAME_SPIT, limit=-1))
    assert error.value.reason is Reason.BAD_LIMIT
    with pytest.raises(BadRequest) as error:
        decode_history_request(ratings_pb2.GetHistoryRequest(game=game_pb2.GAME_BID))
    assert error.value.reason is Reason.NO_PLAYER_ID
    with pytest.raises(BadRequest) as error:
        decode_rating_request(ratings_pb2.GetRatingRequest(player_id="ann"))
    assert error.value.reason is Reason.NO_SUCH_GAME
