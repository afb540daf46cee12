"""Arena scoring: win 2, loss 0, doubled wins on fire after two wins in a row."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.tournaments.scoring import Score, score


def test_two_wins_light_the_fire_and_the_third_win_scores_four() -> None:
    tally = score([True, True, True])
    assert tally.sheet == (2, 2, 4)
    assert tally.points == 8
    assert tally.on_fire


def test_a_loss_puts_the_fire_out() -> None:
    assert score([True, True, True, False, True]).sheet == (2, 2, 4, 0, 2)


def test_a_single_win_is_not_on_fire() -> None:
    tally = score([False, True])
    assert (tally.points, tally.games, tally.wins, tally.streak) == (2, 2, 1, 1)
    assert not tally.on_fire


def test_no_games_score_nothing() -> None:
    assert score([]) == Score()


@given(st.lists(st.booleans(), max_size=60))
def test_points_are_the_sheet_summed_and_each_win_is_two_or_four(wins: list[bool]) -> None:
    tally = score(wins)
    assert tally.points == sum(tally.sheet)
    assert tally.games == len(wins)
    assert tally.wins == sum(wins)
    for won, points in zip(wins, tally.sheet, strict=True):
        assert points in ((2, 4) if won else (0,))


@given(st.lists(st.booleans(), max_size=60))
def test_a_win_is_doubled_exactly_when_the_two_games_before_were_wins(wins: list[bool]) -> None:
    sheet = score(wins).sheet
    for index, won in enumerate(wins):
        if won:
            streak_before = index >= 2 and all(wins[index - 2 : index])
            assert sheet[index] == (4 if streak_before else 2)


@given(st.lists(st.booleans(), max_size=40), st.lists(st.booleans(), max_size=40))
def test_scoring_is_incremental(first: list[bool], then: list[bool]) -> None:
    tally = score(first)
    for won in then:
        tally = tally.after(won)
    assert tally == score(first + then)
