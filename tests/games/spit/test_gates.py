"""Ready gates, the ⏸ pause (rules §7), resigning and the end of the match."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from games.decision import Gate, Outcome, Termination
from games.errors import Malformed, Reason, Refused
from games.seats import SEATS, Seat
from games.spit import (
    Command,
    Move,
    Options,
    Pause,
    Phase,
    Play,
    Ready,
    Resign,
    Resume,
    Spit,
    apply,
    decision,
    forfeit,
    new_match,
    outcome,
)
from games.spit.events import Pressed
from tests.games.spit.positions import NORTH, SOUTH, position


def test_plays_and_spits_before_both_press_ready_are_refused() -> None:
    state = new_match(Options(), 3)
    for command in (Play(stock=0, pile=0), Move(src=4, dst=0), Spit()):
        with pytest.raises(Refused) as err:
            apply(state, SOUTH, command)
        assert err.value.reason is Reason.AT_GATE


def test_each_seat_presses_ready_once_and_the_second_press_makes_the_first_spit() -> None:
    state = new_match(Options(), 3)
    step = apply(state, NORTH, Ready())
    assert step.events == (Pressed(seat=NORTH),)
    assert step.decision.seats == frozenset({SOUTH})
    assert step.decision.gate is Gate.START
    with pytest.raises(Refused) as err:
        apply(step.state, NORTH, Ready())
    assert err.value.reason is Reason.ALREADY_PRESSED
    step = apply(step.state, SOUTH, Ready())
    assert [len(pile) for pile in step.state.centre] == [1, 1]
    assert [len(side.spit) for side in step.state.sides] == [10, 10]
    assert step.state.spits == 1
    assert step.state.phase in (Phase.PLAY, Phase.BLOCKED)
    assert step.state.pressed == frozenset()


def test_ready_during_play_is_refused() -> None:
    state = position(stock0=["8"], centre0="7")
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, Ready())
    assert err.value.reason is Reason.NOT_AT_GATE


def test_during_play_both_seats_decide_with_no_gate_and_nothing_fresh() -> None:
    now = decision(position(stock0=["8"], centre0="7"))
    assert now.seats == frozenset(SEATS)
    assert now.gate is None
    assert not now.fresh


@pytest.mark.parametrize("command", [Pause(), Resume()])
def test_a_match_between_two_people_cannot_be_paused(command: Command) -> None:
    state = position(stock0=["8"], centre0="7")
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, command)
    assert err.value.reason is Reason.NOT_PAUSABLE


def test_a_match_against_the_computer_pauses_and_resumes_at_once() -> None:
    state = position(stock0=["8", "3 3"], centre0="7", pausable=True)
    paused = apply(state, NORTH, Pause())
    assert paused.decision.gate is Gate.PAUSED
    assert paused.decision.seats == frozenset(SEATS)
    resumed = apply(paused.state, SOUTH, Resume())
    assert resumed.decision.gate is None
    assert resumed.state.paused is False
    assert apply(resumed.state, SOUTH, Play(stock=0, pile=0)).state.centre[0][-1].rank == 8


@pytest.mark.parametrize("command", [Play(stock=0, pile=0), Move(src=1, dst=2), Pause(), Spit()])
def test_while_paused_every_other_command_is_refused(command: Command) -> None:
    state = apply(position(stock0=["8", "3 3"], centre0="7", pausable=True), SOUTH, Pause()).state
    with pytest.raises(Refused) as err:
        apply(state, NORTH, command)
    assert err.value.reason is Reason.PAUSED


def test_ready_is_refused_while_paused_and_the_gate_returns_on_resume() -> None:
    state = apply(new_match(Options(pausable=True), 5), SOUTH, Pause()).state
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, Ready())
    assert err.value.reason is Reason.PAUSED
    assert decision(apply(state, NORTH, Resume()).state).gate is Gate.START


def test_resuming_an_unpaused_match_is_refused() -> None:
    with pytest.raises(Refused) as err:
        apply(position(stock0=["8"], centre0="7", pausable=True), SOUTH, Resume())
    assert err.value.reason is Reason.NOT_PAUSED


def test_a_paused_match_can_be_resigned() -> None:
    state = apply(position(stock0=["8"], centre0="7", pausable=True), SOUTH, Pause()).state
    step = apply(state, SOUTH, Resign())
    assert step.state.outcome == Outcome(winner=NORTH, termination=Termination.RESIGN)
    assert not step.state.paused


def test_resigning_gives_the_match_to_the_other_seat() -> None:
    step = apply(new_match(Options(), 1), NORTH, Resign())
    assert outcome(step.state) == Outcome(winner=SOUTH, termination=Termination.RESIGN)
    assert step.decision.seats == frozenset()
    assert step.state.version == 1


def test_forfeit_on_time_ends_the_match_once() -> None:
    step = forfeit(new_match(Options(), 1), SOUTH, Termination.TIME)
    assert outcome(step.state) == Outcome(winner=NORTH, termination=Termination.TIME)
    with pytest.raises(Refused) as err:
        forfeit(step.state, NORTH, Termination.TIME)
    assert err.value.reason is Reason.MATCH_OVER


@pytest.mark.parametrize("command", [Ready(), Resign(), Spit(), Pause(), Play(stock=0, pile=0)])
def test_every_command_after_the_end_is_refused_as_match_over(command: Command) -> None:
    over = apply(new_match(Options(pausable=True), 1), NORTH, Resign()).state
    with pytest.raises(Refused) as err:
        apply(over, SOUTH, command)
    assert err.value.reason is Reason.MATCH_OVER


def test_a_seat_that_does_not_exist_is_malformed() -> None:
    with pytest.raises(Malformed) as err:
        apply(new_match(Options(), 1), Seat(2), Ready())
    assert err.value.reason is Reason.NO_SUCH_SEAT


def test_something_that_is_not_a_command_is_malformed() -> None:
    with pytest.raises(Malformed) as err:
        apply(new_match(Options(), 1), SOUTH, "ready")  # type: ignore[arg-type]
    assert err.value.reason is Reason.UNKNOWN_COMMAND


def test_decision_is_recomputed_from_the_state_alone() -> None:
    state = new_match(Options(), 1)
    step = apply(state, SOUTH, Ready())
    assert decision(step.state) == step.decision
    assert decision(replace(step.state, version=99)) == step.decision
