"""Resigning, forfeiting on time, and what happens after the end."""

from __future__ import annotations

import pytest

from games.bid import (
    MatchEnded,
    Options,
    Phase,
    apply,
    decision,
    forfeit,
    legal_commands,
    new_match,
    outcome,
)
from games.decision import Decision, Outcome, Termination
from games.errors import Malformed, Reason, Refused
from games.seats import Seat
from tests.games.bid.position import S0, S1, cmd, position


@pytest.mark.parametrize("seat", [S0, S1])
def test_either_seat_may_resign_even_at_a_gate(seat: Seat) -> None:
    step = apply(new_match(Options(), 5), seat, cmd("resign"))
    assert outcome(step.state) == Outcome(Seat(1 - seat), Termination.RESIGN)
    assert step.events == (MatchEnded(Outcome(Seat(1 - seat), Termination.RESIGN)),)
    assert step.decision == Decision(frozenset(), False)


def test_the_seat_not_to_act_may_resign_during_play() -> None:
    state = position("[1|2]", "[3|4]", boneyard="[5|5]", board=["[2|6]"])
    assert apply(state, S1, cmd("resign")).state.outcome == Outcome(S0, Termination.RESIGN)


def test_a_time_forfeit_makes_the_other_seat_win() -> None:
    state = position("[1|2]", "[3|4]", phase=Phase.AUCTION, jockey=1)
    step = forfeit(state, S0, Termination.TIME)
    assert step.state.outcome == Outcome(S1, Termination.TIME)
    assert step.state.version == state.version + 1
    assert decision(step.state).seats == frozenset()


def test_commands_after_the_end_are_refused_as_match_over() -> None:
    over = forfeit(new_match(Options(), 5), S1, Termination.TIME).state
    for text in ("ready", "resign", "play [1|2]", "bid 15"):
        with pytest.raises(Refused) as err:
            apply(over, S0, cmd(text))
        assert err.value.reason is Reason.MATCH_OVER
    with pytest.raises(Refused):
        forfeit(over, S0, Termination.TIME)
    assert list(legal_commands(over, S0)) == []
    assert list(legal_commands(over, S1)) == []


def test_a_seat_other_than_0_or_1_is_malformed() -> None:
    with pytest.raises(Malformed) as err:
        apply(new_match(Options(), 5), Seat(2), cmd("ready"))
    assert err.value.reason is Reason.NO_SUCH_SEAT


def test_apply_never_mutates_its_input() -> None:
    state = new_match(Options(), 5)
    before = repr(state)
    apply(state, S0, cmd("ready"))
    apply(state, S1, cmd("resign"))
    assert repr(state) == before
