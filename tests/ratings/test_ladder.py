"""The ladder's order and ranks, and how many lines a caller gets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.ratings.errors import BadRequest
from services.ratings.ladder import DEFAULT_LIMIT, MAX_LIMIT, limit_of, page_start, rank
from tests.ratings.results import standing


def test_higher_rating_ranks_first_then_more_games_then_player_id() -> None:
    rows = [
        standing("dee", 1500, games=3),
        standing("bob", 1500, games=9),
        standing("ann", 1500, games=3),
        standing("cat", 1800, games=1),
    ]
    ranked = rank(rows)
    assert [(e.rank, e.standing.player_id) for e in ranked] == [
        (1, "cat"),
        (2, "bob"),
        (3, "ann"),
        (4, "dee"),
    ]


def test_provisional_while_rd_is_110_or_more() -> None:
    ranked = rank([standing("ann", 1600, rd=110.0), standing("bob", 1500, rd=109.99)])
    assert [e.is_provisional for e in ranked] == [True, False]


def test_limit_zero_means_the_default_and_large_limits_are_capped() -> None:
    assert limit_of(0) == DEFAULT_LIMIT
    assert limit_of(7) == 7
    assert limit_of(10**6) == MAX_LIMIT
    with pytest.raises(BadRequest):
        limit_of(-1)


@pytest.mark.parametrize(
    ("rank_of_player", "total", "limit", "start"),
    [
        (10, 30, 5, 8),  # centred: 8 9 [10] 11 12
        (10, 30, 4, 9),  # even page: one line more below
        (1, 30, 5, 1),  # the leader's page is the top
        (30, 30, 5, 26),  # the last player's page is the bottom, still full
        (2, 3, 50, 1),  # a page larger than the ladder is the whole ladder
    ],
)
def test_the_page_around_a_player_is_centred_and_stays_full(
    rank_of_player: int, total: int, limit: int, start: int
) -> None:
    assert page_start(rank_of_player, total, limit) == start


@given(st.integers(1, 1000), st.integers(0, 1000), st.integers(1, 500))
def test_the_page_around_a_player_always_contains_them(
    rank_of_player: int, more: int, limit: int
) -> None:
    total = rank_of_player + more
    start = page_start(rank_of_player, total, limit)
    assert 1 <= start <= rank_of_player < start + limit
    assert start + limit - 1 <= total or start == 1
