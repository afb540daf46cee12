"""Playing onto the centre and moving into empty spaces (rules §3.2–3.3)."""

from __future__ import annotations

import pytest

from games.errors import Malformed, Reason, Refused
from games.spit import Move, Phase, Play, Rank, apply, encode_state, view
from games.spit.events import Moved, Played, Revealed
from tests.games.spit.positions import NORTH, SOUTH, centre_tops, position, tops


@pytest.mark.parametrize(
    ("card", "top"),
    [("8", "7"), ("6", "7"), ("K", "A"), ("A", "K"), ("2", "A"), ("Q", "K"), ("10", "J")],
)
def test_a_card_one_rank_up_or_down_goes_onto_the_pile(card: str, top: str) -> None:
    state = position(stock0=[card, "5 5"], centre0=top, centre1="9")
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    assert centre_tops(step.state) == [card, "9"]
    assert tops(step.state, SOUTH)[0] == "-"


@pytest.mark.parametrize(("card", "top"), [("9", "7"), ("7", "7"), ("Q", "A"), ("2", "K")])
def test_a_card_not_one_rank_away_is_refused(card: str, top: str) -> None:
    state = position(stock0=[card, "5 5"], centre0=top, centre1="9")
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, Play(stock=0, pile=0))
    assert err.value.reason is Reason.NOT_ADJACENT


def test_both_piles_take_cards_and_the_worked_example_runs() -> None:
    # Rules §3, example: centre 7 and Q; 8 then 9 on the 7, meanwhile K then A on the Q.
    state = position(stock0=["8", "9", "2 2"], stock1=["K", "A", "3 3"], centre0="7", centre1="Q")
    state = apply(state, SOUTH, Play(stock=0, pile=0, onto=Rank.SEVEN)).state
    state = apply(state, NORTH, Play(stock=0, pile=1, onto=Rank.QUEEN)).state
    state = apply(state, SOUTH, Play(stock=1, pile=0, onto=Rank.EIGHT)).state
    state = apply(state, NORTH, Play(stock=1, pile=1, onto=Rank.KING)).state
    assert centre_tops(state) == ["9", "A"]
    assert [len(pile) for pile in state.centre] == [3, 3]


def test_playing_a_stock_top_reveals_the_card_beneath_to_everyone() -> None:
    state = position(stock0=["3 8", "5 5"], centre0="7", centre1="9")
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    beneath = state.sides[SOUTH].stock[0][0]
    assert step.events == (
        Played(seat=SOUTH, stock=0, pile=0, card=state.sides[SOUTH].stock[0][1]),
        Revealed(seat=SOUTH, stock=0, card=beneath),
    )
    for seat in (SOUTH, NORTH, None):
        assert view(step.state, seat).sides[SOUTH].stock[0].top == beneath
        assert view(step.state, seat).sides[SOUTH].stock[0].hidden == 0


def test_playing_from_an_empty_space_is_refused() -> None:
    state = position(stock0=["8", "", "5 5"], centre0="7", centre1="9")
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, Play(stock=1, pile=0))
    assert err.value.reason is Reason.EMPTY_STOCK


def test_nothing_can_be_played_onto_an_empty_centre_pile() -> None:
    state = position(stock0=["8", "5 5"], centre0="7")
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, Play(stock=0, pile=1))
    assert err.value.reason is Reason.NOT_ADJACENT


def test_a_pile_number_that_cannot_exist_is_malformed() -> None:
    state = position(stock0=["8", "5 5"], centre0="7")
    with pytest.raises(Malformed) as err:
        apply(state, SOUTH, Play(stock=5, pile=0))
    assert err.value.reason is Reason.NO_SUCH_PILE


def test_moving_into_an_empty_space_uncovers_the_next_card() -> None:
    state = position(stock0=["8", "", "4 J"], centre0="3", centre1="3")
    step = apply(state, SOUTH, Move(src=2, dst=1))
    assert tops(step.state, SOUTH) == ["8", "J", "4", "-", "-"]
    moved, revealed = step.events
    assert isinstance(moved, Moved) and str(moved.card.rank) == "J"
    assert isinstance(revealed, Revealed) and str(revealed.card.rank) == "4"


def test_moving_onto_an_occupied_pile_is_refused() -> None:
    state = position(stock0=["8", "3 4", "4 J"], centre0="2", centre1="2")
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, Move(src=2, dst=1))
    assert err.value.reason is Reason.SPACE_NOT_EMPTY


def test_moving_a_lone_card_into_a_space_is_refused_as_it_uncovers_nothing() -> None:
    state = position(stock0=["8", "", "4 J"], centre0="2", centre1="2")
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, Move(src=0, dst=1))
    assert err.value.reason is Reason.NOTHING_TO_UNCOVER


def test_moving_from_an_empty_space_is_refused() -> None:
    state = position(stock0=["8", "", "4 J"], centre0="2", centre1="2")
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, Move(src=3, dst=1))
    assert err.value.reason is Reason.EMPTY_STOCK


def test_a_refused_play_changes_nothing_and_an_accepted_one_counts_a_version() -> None:
    state = position(stock0=["8", "5 5"], centre0="7", centre1="K")
    before = encode_state(state)
    with pytest.raises(Refused):
        apply(state, SOUTH, Play(stock=0, pile=1))
    assert encode_state(state) == before
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    assert step.state.version == state.version + 1
    assert encode_state(state) == before
    assert step.state.phase is Phase.PLAY
