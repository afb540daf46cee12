"""The ladder's order and ranks, and how many lines a caller gets."""

from __future__ import annotations

import pytest

from services.ratings.errors import BadRequest
from services.ratings.ladder import DEFAULT_LIMIT, MAX_LIMIT, limit_of, rank
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
