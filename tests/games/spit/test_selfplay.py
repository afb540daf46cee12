"""Self-play in simulated time: matches end, replay from their seed, and strength shows."""

from __future__ import annotations

from games.bot import Level
from games.seats import SEATS
from games.spit.selfplay import play_match


def test_a_simulated_match_ends_with_one_winner() -> None:
    result, stats = play_match(Level.MEDIUM, Level.EASY, seed=3)
    assert result is not None and result.winner in SEATS
    assert stats.aborted is None
    assert stats.accepted > 0 and stats.sim_ms > 0


def test_a_simulated_match_replays_from_its_seed() -> None:
    assert play_match(Level.HARD, Level.HARD, seed=12) == play_match(Level.HARD, Level.HARD, 12)


def test_a_match_cut_off_early_says_why() -> None:
    result, stats = play_match(Level.EASY, Level.EASY, seed=1, max_commands=10)
    assert result is None
    assert stats.aborted == "commands"


def test_hard_beats_easy_in_a_clear_majority() -> None:
    games = 40
    hard_wins = 0
    for seed in range(games):
        hard_seat = seed % 2
        levels = (Level.HARD, Level.EASY) if hard_seat == 0 else (Level.EASY, Level.HARD)
        result, _ = play_match(*levels, seed=seed)
        hard_wins += result is not None and result.winner == hard_seat
    assert hard_wins >= 0.8 * games
