"""Start and Continue gates: both seats press; who decides and whether it is fresh."""

from __future__ import annotations

import pytest

from games.bid import (
    Options,
    Pressed,
    Ready,
    State,
    apply,
    decision,
    legal_commands,
)
from games.bid import new_match as start
from games.decision import Decision, Gate
from games.errors import Reason, Refused
from tests.games.bid.position import S0, S1, cmd, position


def test_a_new_match_is_dealt_and_waits_at_start_for_both_seats() -> None:
    state = start(Options(), 1)
    assert decision(state) == Decision(frozenset({S0, S1}), False, Gate.START)
    assert len(state.hands[0]) == len(state.hands[1]) == 7
    assert len(state.boneyard) == 14
    assert state.round_no == 1


def test_after_one_press_only_the_other_seat_still_has_to_press() -> None:
    step = apply(start(Options(), 1), S1, Ready())
    assert step.events == (Pressed(S1, Gate.START),)
    assert step.decision == Decision(frozenset({S0}), False, Gate.START)
    assert list(legal_commands(step.state, S1)) == [cmd("resign")]
    assert list(legal_commands(step.state, S0)) == [Ready(), cmd("resign")]


def test_pressing_twice_is_refused() -> None:
    state = apply(start(Options(), 1), S0, Ready()).state
    with pytest.raises(Refused) as err:
        apply(state, S0, Ready())
    assert err.value.reason is Reason.ALREADY_PRESSED


def test_once_both_pressed_the_openers_fresh_decision_begins() -> None:
    state = apply(start(Options(), 1), S0, Ready()).state
    step = apply(state, S1, Ready())
    assert step.decision.gate is None
    assert step.decision.seats == frozenset({step.state.to_act})
    assert step.decision.fresh


def test_playing_at_a_gate_is_refused() -> None:
    state = start(Options(), 1)
    play = next(c for c in legal_commands(_past_gate(state), state.to_act) if str(c) != "resign")
    with pytest.raises(Refused) as err:
        apply(state, state.to_act, play)
    assert err.value.reason is Reason.AT_GATE


def test_ready_outside_a_gate_is_refused() -> None:
    state = position("[1|2]", "[3|4]", boneyard="[5|5]")
    with pytest.raises(Refused) as err:
        apply(state, S1, Ready())
    assert err.value.reason is Reason.NOT_AT_GATE


def test_a_round_that_ends_waits_at_continue_with_the_next_round_dealt() -> None:
    state = position("[4|6]", "[5|5] [6|6]", boneyard="[1|2]", board=["[1|4]"])
    step = apply(state, S0, cmd("play [4|6] [1|4]:high"))
    assert step.decision == Decision(frozenset({S0, S1}), False, Gate.CONTINUE)
    assert step.state.round_no == 3
    assert step.state.board.is_empty
    after = apply(apply(step.state, S0, Ready()).state, S1, Ready())
    assert after.decision == Decision(frozenset({S1}), True)  # the non-jockey's auction step


def test_every_step_reports_the_decision_recomputable_from_the_state() -> None:
    state = start(Options(), 3)
    for seat in (S0, S1):
        step = apply(state, seat, Ready())
        assert step.decision == decision(step.state)
        state = step.state


def _past_gate(state: State) -> State:
    from msgspec.structs import replace

    return replace(state, gate=None)


def test_impossible_options_are_rejected() -> None:
    with pytest.raises(ValueError):
        Options(hand_size=15)
    with pytest.raises(ValueError):
        Options(min_bid=12)
