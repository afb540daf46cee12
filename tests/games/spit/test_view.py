"""Views (STYLE: secrets leave only through view): face-up cards public, face-down nowhere."""

from __future__ import annotations

from msgspec.structs import replace

from games.decision import Gate
from games.spit import (
    CentreView,
    Options,
    Play,
    Ready,
    StockView,
    apply,
    events_for,
    new_match,
    view,
)
from games.spit.events import Dealt
from tests.games.spit.positions import NORTH, SOUTH, position
from tests.games.spit.test_properties import cards_in


def test_a_seat_sees_tops_and_face_down_counts_of_both_sides_and_the_centre() -> None:
    state = position(
        stock0=["2 3 8", "4"], stock1=["J"], spit0="5 6", spit1="9", centre0="6 7", centre1="Q"
    )
    seen = view(state, SOUTH)
    assert seen.seat == SOUTH
    assert seen.sides[SOUTH].stock[0] == StockView(top=state.sides[SOUTH].stock[0][-1], hidden=2)
    assert seen.sides[SOUTH].stock[2] == StockView(top=None, hidden=0)
    assert seen.sides[SOUTH].spit_count == 2
    assert seen.sides[NORTH].stock[0].top == state.sides[NORTH].stock[0][0]
    assert seen.sides[NORTH].spit_count == 1
    assert seen.centre == (
        CentreView(top=state.centre[0][-1], size=2),
        CentreView(top=state.centre[1][-1], size=1),
    )
    assert seen.gate is None and seen.round_no == 1 and seen.outcome is None


def test_the_spectator_sees_what_the_players_see_but_as_nobody() -> None:
    state = position(stock0=["2 3 8"], stock1=["J"], spit0="5 6", centre0="7", centre1="Q")
    assert view(state, None) == replace(view(state, SOUTH), seat=None)
    assert view(state, None) == replace(view(state, NORTH), seat=None)


def test_no_face_down_card_appears_in_any_view() -> None:
    state = apply(apply(new_match(Options(), 11), SOUTH, Ready()).state, NORTH, Ready()).state
    for seat in (SOUTH, NORTH, None):
        assert not cards_in(view(state, seat)) & state.face_down()


def test_the_reveal_event_names_only_the_card_turned_face_up() -> None:
    state = position(stock0=["2 3 8"], stock1=["J"], centre0="7", centre1="Q")
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    for seat in (SOUTH, NORTH, None):
        named = cards_in(events_for(step.events, seat))
        assert named == {state.sides[SOUTH].stock[0][2], state.sides[SOUTH].stock[0][1]}
        assert state.sides[SOUTH].stock[0][0] not in named


def test_a_new_deal_is_announced_with_tops_and_counts_only() -> None:
    state = position(stock0=["8"], spit0="2 3", stock1=["J", "3 4"], spit1="5", centre0="7")
    step = apply(state, SOUTH, Play(stock=0, pile=0))
    dealt = [event for event in step.events if isinstance(event, Dealt)]
    assert [event.seat for event in dealt] == [SOUTH, NORTH]
    for event in dealt:
        side = step.state.sides[event.seat]
        assert event.tops == tuple(pile[-1] if pile else None for pile in side.stock)
        assert not cards_in(event) & step.state.face_down()


def test_the_view_tells_who_still_has_to_press_ready() -> None:
    state = apply(new_match(Options(), 2), NORTH, Ready()).state
    seen = view(state, SOUTH)
    assert seen.gate is Gate.START
    assert seen.must_press == frozenset({SOUTH})
