"""Setup (rules §2): 26 cards each, stock piles of 1–5 with tops face up, a spit pile."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from games.decision import Gate
from games.seats import SEATS
from games.spit import Options, Phase, decision, new_match, view
from games.spit.cards import full_deck
from games.spit.deal import lay_out
from games.spit.model import Pile

seeds = st.integers(min_value=0, max_value=2**63)


@given(seeds)
def test_each_seat_gets_26_cards_as_piles_of_1_to_5_and_a_spit_pile_of_11(seed: int) -> None:
    state = new_match(Options(), seed)
    for side in state.sides:
        assert [len(pile) for pile in side.stock] == [1, 2, 3, 4, 5]
        assert len(side.spit) == 11
        assert side.card_count() == 26
    assert Counter(state.all_cards()) == Counter(full_deck())


@given(seeds)
def test_every_stock_top_is_face_up_and_nothing_else(seed: int) -> None:
    state = new_match(Options(), seed)
    public = view(state, None)
    for side, seen in zip(state.sides, public.sides, strict=True):
        assert [pile.top for pile in seen.stock] == [pile[-1] for pile in side.stock]
        assert [pile.hidden for pile in seen.stock] == [0, 1, 2, 3, 4]
        assert seen.spit_count == 11


def test_a_new_match_waits_for_both_to_press_ready_with_empty_centre() -> None:
    state = new_match(Options(), 1)
    assert state.phase is Phase.START
    assert state.centre == ((), ())
    now = decision(state)
    assert now.gate is Gate.START
    assert now.seats == frozenset(SEATS)
    assert not now.fresh


def test_the_deal_depends_only_on_the_seed() -> None:
    assert new_match(Options(), 99) == new_match(Options(), 99)
    assert new_match(Options(), 99).sides != new_match(Options(), 100).sides


def _cards(count: int) -> Pile:
    return tuple(full_deck()[:count])


def test_fewer_than_15_cards_leave_the_later_piles_unfilled() -> None:
    side = lay_out(_cards(8))
    assert [len(pile) for pile in side.stock] == [1, 2, 3, 2, 0]
    assert side.spit == ()


def test_exactly_15_cards_fill_the_piles_and_leave_no_spit_pile() -> None:
    side = lay_out(_cards(15))
    assert [len(pile) for pile in side.stock] == [1, 2, 3, 4, 5]
    assert side.spit == ()


def test_more_than_15_cards_put_the_rest_in_the_spit_pile() -> None:
    side = lay_out(_cards(40))
    assert [len(pile) for pile in side.stock] == [1, 2, 3, 4, 5]
    assert len(side.spit) == 25


def test_a_single_card_lies_in_the_first_pile() -> None:
    assert [len(pile) for pile in lay_out(_cards(1)).stock] == [1, 0, 0, 0, 0]
