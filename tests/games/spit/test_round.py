"""The end of a round (rules §3.5–3.6, §4, §5): piles taken, the next deal, going out."""

from __future__ import annotations

from collections import Counter

import pytest

from games.decision import Gate, Outcome, Termination
from games.errors import Reason, Refused
from games.seats import SEATS
from games.spit import Phase, Play, Ready, apply, decision
from games.spit.events import Ended, RoundEnded
from games.spit.model import State
from tests.games.spit.positions import NORTH, SOUTH, position


def _cards(state: State, seat: int) -> Counter[object]:
    side = state.sides[seat]
    return Counter([*side.spit, *(card for pile in side.stock for card in pile)])


def test_the_seat_that_empties_its_stock_takes_the_smaller_pile_and_the_other_the_rest() -> None:
    state = position(
        stock0=["8"],
        spit0="2 3",
        stock1=["J", "3 4"],
        spit1="5",
        centre0="7",
        centre1="K Q 10 9",
    )
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    ended = next(event for event in step.events if isinstance(event, RoundEnded))
    assert ended == RoundEnded(round_no=1, finisher=SOUTH, taken=0, card_counts=(4, 8))
    new = step.state
    south_expected = Counter(
        [*state.sides[SOUTH].spit, *state.centre[0], state.sides[SOUTH].stock[0][0]]
    )
    north_side = state.sides[NORTH]
    north_expected = Counter(
        [*north_side.spit, *(c for pile in north_side.stock for c in pile), *state.centre[1]]
    )
    assert _cards(new, SOUTH) == south_expected
    assert _cards(new, NORTH) == north_expected
    assert new.round_no == 2
    assert new.centre == ((), ())


def test_the_next_round_is_laid_out_again_with_fewer_than_15_cards_unfilled() -> None:
    state = position(
        stock0=["8"],
        spit0="2 3",
        stock1=["J", "3 4"],
        spit1="5",
        centre0="7",
        centre1="K Q 10 9",
    )
    new = apply(state, SOUTH, Play(stock=0, pile=0)).state
    assert [len(pile) for pile in new.sides[SOUTH].stock] == [1, 2, 1, 0, 0]
    assert [len(pile) for pile in new.sides[NORTH].stock] == [1, 2, 3, 2, 0]
    assert [len(side.spit) for side in new.sides] == [0, 0]


def test_with_equal_centre_piles_the_finisher_takes_the_pile_on_its_own_side() -> None:
    state = position(
        stock0=["J", "3 4"],
        spit0="5",
        stock1=["8"],
        spit1="2 3",
        centre0="K Q 10",
        centre1="6 7",
    )
    step = apply(state, NORTH, Play(stock=0, pile=1))
    ended = next(event for event in step.events if isinstance(event, RoundEnded))
    assert ended.taken == 1
    assert ended.card_counts == (7, 5)


def test_the_next_round_waits_for_both_ready_then_spits_at_once() -> None:
    state = position(
        stock0=["8"],
        spit0="2 3",
        stock1=["J", "3 4"],
        spit1="A A 2 2 4 4 6 6 9 10",
        centre0="7",
        centre1="K Q 10 9",
    )
    new = apply(state, SOUTH, Play(stock=0, pile=0)).state
    assert [side.card_count() for side in new.sides] == [4, 17]
    assert new.phase is Phase.CONTINUE
    assert decision(new).gate is Gate.CONTINUE
    assert decision(new).seats == frozenset(SEATS)
    with pytest.raises(Refused) as err:
        apply(new, SOUTH, Play(stock=0, pile=0))
    assert err.value.reason is Reason.AT_GATE
    new = apply(new, NORTH, Ready()).state
    assert decision(new).seats == frozenset({SOUTH})
    step = apply(new, SOUTH, Ready())
    # South laid all 4 cards in stock and has no spit pile: north spits alone, onto pile 1.
    assert [len(pile) for pile in step.state.centre] == [0, 1]
    assert step.state.centre[1][0] == new.sides[NORTH].spit[-1]
    assert step.state.phase in (Phase.PLAY, Phase.BLOCKED)


def test_going_out_with_no_spit_pile_wins_the_match() -> None:
    state = position(stock0=["8"], stock1=["J", "3 4"], spit1="5 6", centre0="7", centre1="9")
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    assert step.state.outcome == Outcome(winner=SOUTH, termination=Termination.CARDS)
    assert step.events[-1] == Ended(outcome=Outcome(winner=SOUTH, termination=Termination.CARDS))
    assert step.decision.seats == frozenset()
    assert step.state.phase is Phase.OVER
    with pytest.raises(Refused) as err:
        apply(step.state, NORTH, Play(stock=0, pile=1))
    assert err.value.reason is Reason.MATCH_OVER


def test_only_emptying_the_last_stock_pile_ends_the_round() -> None:
    state = position(stock0=["8", "4"], spit0="2", stock1=["J"], centre0="7", centre1="3")
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    assert step.state.round_no == 1
    assert step.state.phase is Phase.PLAY
