"""Glicko-2 against Glickman's worked example, and the bounds players rely on."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.ratings.glicko2 import RD_MAX, RD_MIN, Rating, Result, decay, rate


def test_glickman_worked_example_to_two_decimals() -> None:
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1),
        Result(Rating(1550, 100), 0),
        Result(Rating(1700, 300), 0),
    ]
    after = rate(player, results, tau=0.5, bounded=False)
    # The paper prints 1464.06 from intermediates rounded to four places; unrounded
    # arithmetic gives 1464.0507, within one hundredth of it.
    assert abs(after.rating - 1464.06) <= 0.01
    assert round(after.rd, 2) == 151.52
    assert abs(after.volatility - 0.05999) < 0.00001


def test_a_new_player_is_provisional_until_rd_falls_below_110() -> None:
    assert Rating().is_provisional
    assert not Rating(1500, 109.9).is_provisional


def test_a_win_against_an_equal_player_raises_the_rating_and_lowers_rd() -> None:
    after = rate(Rating(), [Result(Rating(), 1)])
    assert after.rating > 1500
    assert after.rd < 500


def test_inactivity_grows_rd_but_never_past_the_cap() -> None:
    settled = Rating(1800, 60, 0.06)
    assert decay(settled, 30).rd > 60
    assert decay(settled, 100_000).rd == RD_MAX
    assert decay(settled, 0).rd == pytest.approx(60)


@given(
    st.floats(800, 2800),
    st.floats(RD_MIN, RD_MAX),
    st.lists(
        st.tuples(st.floats(800, 2800), st.floats(RD_MIN, RD_MAX), st.sampled_from([0, 0.5, 1])),
        max_size=8,
    ),
)
def test_rd_always_stays_within_bounds(
    rating: float, rd: float, games: list[tuple[float, float, float]]
) -> None:
    after = rate(Rating(rating, rd), [Result(Rating(r, d), s) for r, d, s in games])
    assert RD_MIN <= after.rd <= RD_MAX
