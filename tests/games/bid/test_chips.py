"""Chips move, capped by the payer's balance; a balance of 0 loses (rules §1, §4)."""

from __future__ import annotations

import pytest

from games.bid import MatchEnded, Play, Played, apply
from games.bid.chips import block_award, round_to_five, transfer
from games.decision import Outcome, Termination
from games.seats import Seat
from tests.games.bid.position import S0, S1, cmd, position


def test_a_score_of_15_turns_150_150_into_165_135() -> None:
    state = position("[3|6] [2|2]", "[1|2] [0|1]", boneyard="[4|4]", board=["[6|6]"])
    play = cmd("play [3|6] [6|6]:straight-a")
    assert isinstance(play, Play)
    step = apply(state, S0, play)
    assert step.state.board.total == 15
    assert step.state.balances == (165, 135)
    assert Played(S0, play.tile, play.end, 15, 15) in step.events


def test_transfers_are_capped_by_the_payers_balance() -> None:
    assert transfer((295, 5), Seat(1), 20) == ((300, 0), 5)
    assert transfer((150, 150), Seat(0), 15) == ((135, 165), 15)
    assert transfer((150, 150), Seat(0), 0) == ((150, 150), 0)


def test_a_score_larger_than_the_balance_moves_only_the_balance_and_wins() -> None:
    state = position("[3|6] [2|2]", "[1|2] [0|1]", board=["[6|6]"], balances=(290, 10))
    step = apply(state, S0, cmd("play [3|6] [6|6]:straight-a"))
    assert step.state.balances == (300, 0)
    assert step.state.outcome == Outcome(S0, Termination.CHIPS)
    assert step.events[-1] == MatchEnded(Outcome(S0, Termination.CHIPS))
    assert step.decision.seats == frozenset()


@pytest.mark.parametrize(
    ("total", "rounded"), [(18, 20), (17, 15), (12, 10), (13, 15), (0, 0), (2, 0), (3, 5)]
)
def test_block_totals_round_to_the_nearest_multiple_of_five(total: int, rounded: int) -> None:
    assert round_to_five(total) == rounded


def test_the_lighter_hand_receives_the_heavier_total_rounded_without_subtracting() -> None:
    assert block_award((4, 18)) == (S0, 20)
    assert block_award((20, 17)) == (S1, 20)
    assert block_award((30, 17)) == (S1, 30)
    assert block_award((4, 17)) == (S0, 15)


def test_equal_hand_totals_move_nothing() -> None:
    assert block_award((6, 6)) == (None, 0)
