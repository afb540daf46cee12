"""Bots plan legal commands from a view alone, with think times inside the grace."""

from __future__ import annotations

import random

import pytest

from games.bid import (
    Accept,
    Options,
    PassBid,
    Phase,
    Play,
    Ready,
    apply,
    decision,
    new_match,
    parse_command,
    view,
)
from games.bid.bots import plan
from games.bid.selfplay import play_match
from games.bot import Level
from games.seats import SEATS
from tests.games.bid.position import S0, S1, position, run

GRACE_MS = 10_000


def test_a_bot_presses_ready_at_a_gate() -> None:
    state = new_match(Options(), 4)
    chosen = plan(view(state, S0), S0, Level.HARD, random.Random(1))
    assert chosen is not None and chosen.command == Ready()


def test_a_bot_plans_nothing_when_the_decision_is_not_its_own() -> None:
    state = position("[1|2] [3|4]", "[5|6]", boneyard="[0|0]", board=["[2|6]"])
    assert plan(view(state, S1), S1, Level.EASY, random.Random(1)) is None
    assert plan(view(state, S1), S0, Level.EASY, random.Random(1)) is None


@pytest.mark.parametrize("level", list(Level))
def test_every_planned_command_is_legal_and_thinks_inside_the_grace(level: Level) -> None:
    rng = random.Random(level.value)
    for seed in range(3):
        state = new_match(Options(), seed)
        while state.outcome is None:
            for seat in SEATS:
                seen = view(state, seat)
                chosen = plan(seen, seat, level, rng)
                assert (chosen is None) == (seat not in decision(state).seats)
            seat = min(decision(state).seats)
            chosen = plan(view(state, seat), seat, level, rng)
            assert chosen is not None
            assert chosen.command in view(state, seat).legal
            assert 0 < chosen.think_ms < GRACE_MS
            state = apply(state, seat, chosen.command).state


def test_a_greedy_bot_takes_the_highest_immediate_score() -> None:
    # On [1|6]: [1|4] at the low end makes 4 + 6 = 10; [6|4] at the high end makes 1 + 4.
    state = position("[1|4] [4|6] [0|2]", "[5|5]", boneyard="[0|0]", board=["[1|6]"])
    for level in (Level.MEDIUM, Level.HARD):
        chosen = plan(view(state, S0), S0, level, random.Random(3))
        assert chosen is not None and chosen.command == parse_command("play [1|4] [1|6]:low")


def test_the_hard_bot_takes_a_score_that_wins_the_match() -> None:
    state = position(
        "[1|4] [4|6] [0|2]", "[5|5]", boneyard="[0|0]", board=["[1|6]"], balances=(290, 10)
    )
    chosen = plan(view(state, S0), S0, Level.HARD, random.Random(3))
    assert chosen is not None and chosen.command == parse_command("play [1|4] [1|6]:low")


def test_the_hard_jockey_accepts_a_bid_and_the_medium_bot_passes() -> None:
    state = position("[1|2] [3|4]", "[5|6] [0|1]", phase=Phase.AUCTION, jockey=1)
    chosen = plan(view(state, S0), S0, Level.MEDIUM, random.Random(1))
    assert chosen is not None and chosen.command == PassBid()
    facing = run(state, (0, "bid 15"))
    chosen = plan(view(facing, S1), S1, Level.HARD, random.Random(1))
    assert chosen is not None and chosen.command == Accept()


def test_the_easy_bot_never_bids_its_whole_balance() -> None:
    state = position("[1|2]", "[5|6]", phase=Phase.AUCTION, jockey=1, balances=(15, 285))
    for seed in range(30):
        chosen = plan(view(state, S0), S0, Level.EASY, random.Random(seed))
        assert chosen is not None and chosen.command == PassBid()


def test_opening_plays_name_no_end() -> None:
    state = position("[1|2] [3|4]", "[5|6]", boneyard="[0|0]")
    chosen = plan(view(state, S0), S0, Level.HARD, random.Random(1))
    assert chosen is not None and isinstance(chosen.command, Play)
    assert chosen.command.end is None


def test_self_play_ends_with_a_winner_and_replays_from_its_seed() -> None:
    first = play_match(Level.MEDIUM, Level.EASY, 11)
    assert first.outcome.winner in SEATS
    assert first.rounds >= 1 and first.commands > 0
    assert play_match(Level.MEDIUM, Level.EASY, 11) == first


def test_hard_beats_easy_in_a_short_series() -> None:
    # A sanity check only; the real comparison (hundreds of matches) is a benchmark.
    wins = sum(play_match(Level.HARD, Level.EASY, seed).outcome.winner == S0 for seed in range(10))
    assert wins >= 8
