"""Applying wire commands without a server: nudges, claims, and refusals as statuses."""

from __future__ import annotations

import grpc
import pytest

from games import bid, spit
from games.bid import codec as bid_codec
from games.contract import Claim
from games.decision import Gate
from games.registry import BY_NUMBER as GAMES
from games.seats import Seat
from games.spit import codec as spit_codec
from photofinish.game.v1 import game_pb2
from services.common.rejection import Rejection
from services.rules import replies, steps
from services.rules.games import decode_state, entry_for
from tests.rules.walks import reach, spit_race

BID = GAMES[game_pb2.GAME_BID]
SPIT = GAMES[game_pb2.GAME_SPIT]
NUDGE = game_pb2.Command(nudge=game_pb2.Nudge())
PRESSED = (bid.Pressed, spit.events.Pressed)


def _refusal(call: object) -> Rejection:
    assert callable(call)
    with pytest.raises(Rejection) as error:
        call()
    return error.value


@pytest.mark.parametrize("game", [game_pb2.GAME_BID, game_pb2.GAME_SPIT])
def test_a_nudge_at_the_start_gate_presses_ready_for_both_seats(game: int) -> None:
    entry = GAMES[game]
    state = entry.engine.new_match(entry.codec.options_from_proto(game_pb2.Options()), 4)
    applied = steps.apply(entry, state, 0, NUDGE)
    pressed = [e.seat for e in applied.step.events if isinstance(e, PRESSED)]
    assert pressed == [0, 1]
    assert applied.step.decision.gate is not Gate.START
    assert applied.claim is None


def test_a_nudge_after_one_press_presses_only_for_the_other_seat() -> None:
    state = bid.apply(bid.new_match(bid.Options(), 4), Seat(1), bid.Ready()).state
    applied = steps.apply(BID, state, 0, NUDGE)
    assert [e for e in applied.step.events if isinstance(e, bid.Pressed)] == [
        bid.Pressed(Seat(0), Gate.START)
    ]
    assert applied.step.decision.gate is None


def test_a_nudge_at_the_spit_gate_makes_the_due_spit() -> None:
    start = spit.new_match(spit.Options(), 1)
    blocked = reach(spit, start, lambda s: spit.decision(s).gate is Gate.SPIT)
    applied = steps.apply(SPIT, blocked, 1, NUDGE)
    assert applied.step.state.spits == blocked.spits + 1
    assert any(isinstance(e, spit.events.Spat) for e in applied.step.events)


def test_a_nudge_with_no_gate_to_lift_is_refused() -> None:
    playing = steps.apply(SPIT, spit.new_match(spit.Options(), 1), 0, NUDGE).step.state
    assert spit.decision(playing).gate is None
    refusal = _refusal(lambda: steps.apply(SPIT, playing, 0, NUDGE))
    assert (refusal.code, refusal.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "nothing_to_nudge",
    )


def test_a_nudge_does_not_lift_a_pause() -> None:
    state = spit.new_match(spit.Options(pausable=True), 1)
    paused = spit.apply(state, Seat(0), spit.Pause()).state
    assert _refusal(lambda: steps.apply(SPIT, paused, 0, NUDGE)).reason == "nothing_to_nudge"


def test_a_reveal_is_left_to_the_arbitration() -> None:
    state = bid.new_match(bid.Options(), 1)
    reveal = game_pb2.Command(reveal=game_pb2.Reveal())
    refusal = _refusal(lambda: steps.apply(BID, state, 0, reveal))
    assert refusal.code is grpc.StatusCode.INVALID_ARGUMENT


def test_an_accepted_spit_play_claims_its_pile_with_its_card() -> None:
    state = reach(spit, spit.new_match(spit.Options(), 3), lambda s: spit_race(s) is not None)
    race = spit_race(state)
    assert race is not None
    play = race[0]
    card = state.sides[0].stock[play.stock][-1]
    applied = steps.apply(SPIT, state, 0, spit_codec.command_to_proto(play))
    assert applied.claim == Claim(f"pile:{play.pile}", play.pile, str(card))


def test_the_second_play_onto_a_pile_is_refused_with_the_claim_it_lost() -> None:
    state = reach(spit, spit.new_match(spit.Options(), 3), lambda s: spit_race(s) is not None)
    race = spit_race(state)
    assert race is not None
    first, second = race
    landed = steps.apply(SPIT, state, 0, spit_codec.command_to_proto(first)).step.state
    refusal = _refusal(lambda: steps.apply(SPIT, landed, 1, spit_codec.command_to_proto(second)))
    assert (refusal.code, refusal.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "pile_top_changed",
    )
    card = state.sides[1].stock[second.stock][-1]
    assert refusal.metadata == {
        "claim": f"pile:{second.pile}",
        "claim_slot": str(second.pile),
        "label": str(card),
        "lost_race": "true",
    }


def _misfit(state: spit.State) -> tuple[int, int, object] | None:
    """Return (stock, pile, top) for a seat-0 stock top that does not go onto a centre top."""
    decision = spit.decision(state)
    if state.outcome is not None or decision.gate is not None or 0 not in decision.seats:
        return None
    for stock, pile_cards in enumerate(state.sides[0].stock):
        for pile, centre in enumerate(state.centre):
            if pile_cards and centre and not spit.is_adjacent(pile_cards[-1].rank, centre[-1].rank):
                return stock, pile, centre[-1].rank
    return None


def test_a_misclick_on_the_top_its_player_saw_is_no_race_and_a_blind_one_may_be() -> None:
    state = reach(spit, spit.new_match(spit.Options(), 3), lambda s: _misfit(s) is not None)
    found = _misfit(state)
    assert found is not None
    stock, pile, top = found
    for onto, raced in ((top, False), (None, True)):
        play = spit.Play(stock=stock, pile=pile, onto=onto)  # type: ignore[arg-type]
        refusal = _refusal(
            lambda p=play: steps.apply(SPIT, state, 0, spit_codec.command_to_proto(p))
        )
        assert refusal.reason == "not_adjacent"
        assert ("lost_race" in refusal.metadata) is raced


def test_a_claimed_play_refused_for_another_reason_lost_no_race() -> None:
    state = spit.new_match(spit.Options(), 3)  # at the start gate: nobody may play yet
    play = spit.Play(stock=0, pile=1)
    refusal = _refusal(lambda: steps.apply(SPIT, state, 0, spit_codec.command_to_proto(play)))
    assert refusal.reason == "at_gate"
    assert refusal.metadata["claim"] == "pile:1"
    assert "lost_race" not in refusal.metadata


def test_a_resignation_is_named_as_one_and_a_play_is_not() -> None:
    state = spit.new_match(spit.Options(), 3)
    resigned = steps.apply(SPIT, state, 1, spit_codec.command_to_proto(spit.Resign()))
    assert replies.step_reply(SPIT, resigned.step).resignation
    ready = steps.apply(SPIT, state, 1, spit_codec.command_to_proto(spit.Ready()))
    assert not replies.step_reply(SPIT, ready.step).resignation


def test_bid_commands_claim_nothing() -> None:
    state = bid.new_match(bid.Options(), 1)
    applied = steps.apply(BID, state, 0, bid_codec.command_to_proto(bid.Ready()))
    assert applied.claim is None


def test_a_refused_command_carries_the_engine_reason() -> None:
    state = bid.new_match(bid.Options(), 1)
    refusal = _refusal(lambda: steps.apply(BID, state, 0, bid_codec.command_to_proto(bid.Draw())))
    assert (refusal.code, refusal.reason, refusal.metadata) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "at_gate",
        {},
    )


def test_a_seat_that_cannot_exist_is_malformed() -> None:
    state = bid.new_match(bid.Options(), 1)
    ready = bid_codec.command_to_proto(bid.Ready())
    refusal = _refusal(lambda: steps.apply(BID, state, 2, ready))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "no_such_seat")


def test_another_games_command_is_malformed() -> None:
    state = bid.new_match(bid.Options(), 1)
    ready = spit_codec.command_to_proto(spit.Ready())
    refusal = _refusal(lambda: steps.apply(BID, state, 0, ready))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "unknown_command")


@pytest.mark.parametrize("game", [game_pb2.GAME_UNSPECIFIED, 99])
def test_an_unknown_game_is_refused(game: int) -> None:
    refusal = _refusal(lambda: entry_for(game))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "unknown_game")


@pytest.mark.parametrize("data", [b"", b"\x00\x01garbage", b"\x93\x01\x02\x03"])
@pytest.mark.parametrize("game", [game_pb2.GAME_BID, game_pb2.GAME_SPIT])
def test_state_bytes_that_are_no_state_are_refused(game: int, data: bytes) -> None:
    refusal = _refusal(lambda: decode_state(GAMES[game], data))
    assert (refusal.code, refusal.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_state")


def test_one_games_state_is_not_the_others() -> None:
    data = spit.encode_state(spit.new_match(spit.Options(), 1))
    assert _refusal(lambda: decode_state(BID, data)).reason == "bad_state"
