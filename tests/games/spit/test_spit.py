"""Blocked play and the spit (rules §3.4, §5), detected and made by the server."""

from __future__ import annotations

from collections import Counter

import pytest
from msgspec.structs import replace

from games.decision import Gate
from games.errors import Reason, Refused
from games.seats import SEATS
from games.spit import Phase, Play, Spit, apply
from games.spit.events import Blocked, Reshuffled, Spat
from tests.games.spit.positions import NORTH, SOUTH, centre_tops, position


def test_when_nobody_can_go_on_the_match_waits_at_gate_spit_for_both() -> None:
    state = position(
        stock0=["8", "2"], stock1=["J"], spit0="4 3", spit1="K Q", centre0="7", centre1="5"
    )
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    assert step.state.phase is Phase.BLOCKED
    assert step.events[-1] == Blocked()
    assert step.decision.gate is Gate.SPIT
    assert step.decision.seats == frozenset(SEATS)


def test_a_possible_uncovering_move_counts_as_able_to_go_on() -> None:
    state = position(stock0=["8", "2"], stock1=["J", "", "9 9"], centre0="7", centre1="5")
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    assert step.state.phase is Phase.PLAY


def test_a_spit_turns_each_seats_spit_top_onto_its_own_pile() -> None:
    state = position(
        stock0=["2"],
        stock1=["J"],
        spit0="4 3",
        spit1="K Q",
        centre0="7 8",
        centre1="5",
        phase=Phase.BLOCKED,
    )
    step = apply(state, NORTH, Spit())
    assert centre_tops(step.state) == ["3", "Q"]
    assert [len(side.spit) for side in step.state.sides] == [1, 1]
    assert [type(event) for event in step.events] == [Spat, Spat]
    assert [(event.seat, event.pile) for event in step.events if isinstance(event, Spat)] == [
        (SOUTH, 0),
        (NORTH, 1),
    ]
    assert step.state.phase is Phase.PLAY
    assert step.state.spits == state.spits + 1


@pytest.mark.parametrize("spitter", SEATS)
def test_a_seat_without_a_spit_pile_lets_the_other_spit_alone_onto_its_own_pile(
    spitter: int,
) -> None:
    spits = {spitter: "4 3"}
    state = position(
        stock0=["2"],
        stock1=["J"],
        spit0=spits.get(0, ""),
        spit1=spits.get(1, ""),
        centre0="7",
        centre1="6",
        phase=Phase.BLOCKED,
    )
    step = apply(state, SOUTH, Spit())
    expected = ["7", "6"]
    expected[spitter] = "3"
    assert centre_tops(step.state) == expected
    assert [len(pile) for pile in step.state.centre] == [1 + (spitter == 0), 1 + (spitter == 1)]


def test_a_spit_that_leaves_everyone_stuck_waits_for_another_spit() -> None:
    state = position(
        stock0=["2"],
        stock1=["J"],
        spit0="3 6",
        spit1="Q 6",
        centre0="8",
        centre1="5",
        phase=Phase.BLOCKED,
    )
    step = apply(state, SOUTH, Spit(number=2))
    assert step.state.phase is Phase.BLOCKED
    assert step.events[-1] == Blocked()
    step = apply(step.state, NORTH, Spit(number=3))
    assert step.state.phase is Phase.PLAY


def test_the_second_of_two_spits_for_one_blockage_is_refused() -> None:
    state = position(
        stock0=["2"],
        stock1=["J"],
        spit0="4 3",
        spit1="K Q",
        centre0="8",
        centre1="5",
        phase=Phase.BLOCKED,
    )
    state = apply(state, SOUTH, Spit(number=2)).state
    with pytest.raises(Refused) as err:
        apply(state, NORTH, Spit(number=2))
    assert err.value.reason is Reason.NOT_BLOCKED
    with pytest.raises(Refused) as err:
        apply(state, NORTH, Spit())
    assert err.value.reason is Reason.NOT_BLOCKED


def test_a_numbered_spit_for_an_earlier_blockage_is_refused_even_if_blocked_again() -> None:
    state = position(
        stock0=["2"],
        stock1=["J"],
        spit0="3 6",
        spit1="Q 6",
        centre0="8",
        centre1="5",
        phase=Phase.BLOCKED,
    )
    state = apply(state, SOUTH, Spit(number=2)).state
    assert state.phase is Phase.BLOCKED
    with pytest.raises(Refused) as err:
        apply(state, NORTH, Spit(number=2))
    assert err.value.reason is Reason.NOT_BLOCKED


def test_spit_while_someone_can_go_on_is_refused() -> None:
    state = position(stock0=["8"], spit0="3", spit1="4", centre0="7", centre1="5")
    with pytest.raises(Refused) as err:
        apply(state, NORTH, Spit())
    assert err.value.reason is Reason.NOT_BLOCKED


def test_plays_wait_while_the_spit_is_due() -> None:
    state = position(stock0=["2"], spit0="3", centre0="8", centre1="5", phase=Phase.BLOCKED)
    with pytest.raises(Refused) as err:
        apply(state, SOUTH, Play(stock=0, pile=0))
    assert err.value.reason is Reason.AT_GATE


def test_blocked_without_spit_piles_gathers_the_centre_into_new_spit_piles_then_spits() -> None:
    state = position(
        stock0=["2"], stock1=["J", "10"], centre0="4 5 6 7 8", centre1="5 6", phase=Phase.BLOCKED
    )
    centre_cards = Counter([*state.centre[0], *state.centre[1]])
    step = apply(state, SOUTH, Spit())
    # Seven cards: the odd one goes to the seat with fewer stock cards (south, 1 < 2).
    assert step.events[0] == Reshuffled(spit_counts=(4, 3))
    assert [type(event) for event in step.events[1:3]] == [Spat, Spat]
    assert [len(side.spit) for side in step.state.sides] == [3, 2]
    assert [len(pile) for pile in step.state.centre] == [1, 1]
    after = Counter(
        [
            *step.state.sides[0].spit,
            *step.state.sides[1].spit,
            *step.state.centre[0],
            *step.state.centre[1],
        ]
    )
    assert after == centre_cards
    assert step.state.reshuffles == 1


@pytest.mark.parametrize("seed", range(8))
def test_with_equal_stock_counts_a_seeded_coin_gives_the_odd_card(seed: int) -> None:
    state = position(
        stock0=["2"], stock1=["J"], centre0="4 5 6", centre1="5 6", phase=Phase.BLOCKED, seed=seed
    )
    step = apply(state, SOUTH, Spit())
    reshuffled = step.events[0]
    assert isinstance(reshuffled, Reshuffled)
    assert sorted(reshuffled.spit_counts) == [2, 3]
    assert apply(state, SOUTH, Spit()) == step


def test_the_seeded_coin_gives_the_odd_card_to_either_seat() -> None:
    counts = set()
    for seed in range(8):
        state = position(
            stock0=["2"],
            stock1=["J"],
            centre0="4 5 6",
            centre1="5 6",
            phase=Phase.BLOCKED,
            seed=seed,
        )
        reshuffled = apply(state, SOUTH, Spit()).events[0]
        assert isinstance(reshuffled, Reshuffled)
        counts.add(reshuffled.spit_counts)
    assert counts == {(2, 3), (3, 2)}


def test_each_reshuffle_draws_its_own_seeded_order() -> None:
    state = position(
        stock0=["2"],
        stock1=["J", "10"],
        centre0="3 4 5 6 7 8 9",
        centre1="3 4 5 6 7",
        phase=Phase.BLOCKED,
    )
    first = apply(state, SOUTH, Spit()).state
    assert apply(state, NORTH, Spit()).state.sides == first.sides
    later = apply(replace(state, reshuffles=1), SOUTH, Spit()).state
    assert later.sides != first.sides
