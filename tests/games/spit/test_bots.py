"""Computer opponents: they see only their view, send only legal commands, at their pace."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.bot import Level
from games.seats import SEATS, Seat
from games.spit import (
    Move,
    Options,
    Pause,
    Phase,
    Play,
    Rank,
    Ready,
    Resign,
    Spit,
    apply,
    legal_commands,
    new_match,
    view,
)
from games.spit.bots import PACES, plan, think_ms
from tests.games.spit.positions import NORTH, SOUTH, position, random_position

levels = st.sampled_from(Level)


@given(seed=st.integers(0, 2**32), level=levels, bot_seed=st.integers(0, 2**32))
def test_every_planned_command_is_legal_and_names_the_top_it_saw(
    seed: int, level: Level, bot_seed: int
) -> None:
    state = random_position(seed)
    rng = random.Random(bot_seed)
    for seat in SEATS:
        planned = plan(view(state, seat), seat, level, rng)
        legal = [c for c in legal_commands(state, seat) if isinstance(c, Play | Move | Spit)]
        if planned is None:
            assert not legal
            continue
        apply(state, seat, planned.command)
        if isinstance(planned.command, Play):
            assert planned.command.onto == state.centre[planned.command.pile][-1].rank
        if isinstance(planned.command, Spit):
            assert planned.command.number == state.spits + 1


@given(seed=st.integers(0, 2**32), bot_seed=st.integers(0, 2**32))
def test_easy_never_uncovers_while_it_has_a_play(seed: int, bot_seed: int) -> None:
    state = random_position(seed)
    for seat in SEATS:
        planned = plan(view(state, seat), seat, Level.EASY, random.Random(bot_seed))
        has_play = any(isinstance(c, Play) for c in legal_commands(state, seat))
        if planned is not None and has_play:
            assert isinstance(planned.command, Play)


@pytest.mark.parametrize("level", list(Level))
def test_think_times_follow_the_documented_pace(level: Level) -> None:
    rng = random.Random(1)
    pace = PACES[level]
    draws = [think_ms(level, rng) for _ in range(4000)]
    assert min(draws) >= pace.min_ms and max(draws) <= pace.max_ms
    assert abs(statistics.median(draws) - pace.median_ms) < 0.05 * pace.median_ms


def test_harder_bots_think_faster() -> None:
    medians = [PACES[level].median_ms for level in (Level.EASY, Level.MEDIUM, Level.HARD)]
    assert medians == sorted(medians, reverse=True)


@pytest.mark.parametrize("level", list(Level))
def test_bots_press_ready_once_at_a_gate(level: Level) -> None:
    state = new_match(Options(), 4)
    planned = plan(view(state, SOUTH), SOUTH, level, random.Random(0))
    assert planned is not None and planned.command == Ready()
    state = apply(state, SOUTH, Ready()).state
    assert plan(view(state, SOUTH), SOUTH, level, random.Random(0)) is None


@pytest.mark.parametrize("level", list(Level))
def test_bots_send_the_next_numbered_spit_when_blocked(level: Level) -> None:
    state = position(stock0=["2"], stock1=["J"], spit0="3", spit1="Q", phase=Phase.BLOCKED)
    planned = plan(view(state, NORTH), NORTH, level, random.Random(0))
    assert planned is not None and planned.command == Spit(number=state.spits + 1)


@pytest.mark.parametrize("level", list(Level))
def test_bots_do_nothing_when_paused_or_over(level: Level) -> None:
    paused = apply(position(stock0=["8"], centre0="7", pausable=True), SOUTH, Pause()).state
    assert plan(view(paused, SOUTH), SOUTH, level, random.Random(0)) is None
    over = apply(position(stock0=["8"], centre0="7"), NORTH, Resign()).state
    assert plan(view(over, SOUTH), SOUTH, level, random.Random(0)) is None


def test_hard_starts_a_run_it_can_follow_up() -> None:
    # 6 or 8 both go on the 7, but only the 8 lets the 9 follow (rules tip: play runs).
    state = position(stock0=["6", "8", "9"], stock1=["2"], centre0="7", centre1="4")
    for bot_seed in range(20):
        planned = plan(view(state, SOUTH), SOUTH, Level.HARD, random.Random(bot_seed))
        assert planned is not None and planned.command == Play(stock=1, pile=0, onto=Rank.SEVEN)


def test_hard_prefers_the_play_that_uncovers_a_face_down_card() -> None:
    state = position(stock0=["6", "2 8"], stock1=["2"], centre0="7", centre1="4")
    for bot_seed in range(20):
        planned = plan(view(state, SOUTH), SOUTH, Level.HARD, random.Random(bot_seed))
        assert planned is not None and isinstance(planned.command, Play)
        assert planned.command.stock == 1


def test_hard_uses_an_empty_space_when_it_has_no_play() -> None:
    state = position(stock0=["2", "", "3 3 J"], stock1=["5"], centre0="7", centre1="6")
    planned = plan(view(state, SOUTH), SOUTH, Level.HARD, random.Random(0))
    assert planned is not None and planned.command == Move(src=2, dst=1)


def test_a_bot_with_nothing_to_do_plans_nothing() -> None:
    state = position(stock0=["2"], stock1=["5", "6 6"], centre0="9", centre1="J")
    for level in Level:
        assert plan(view(state, SOUTH), SOUTH, level, random.Random(0)) is None


def test_each_level_opens_a_fresh_round_with_a_command_that_applies() -> None:
    state = new_match(Options(), 8)
    for seat in (SOUTH, NORTH):
        state = apply(state, seat, Ready()).state
    for level in Level:
        planned = plan(view(state, Seat(0)), Seat(0), level, random.Random(3))
        assert planned is not None
        apply(state, Seat(0), planned.command)
