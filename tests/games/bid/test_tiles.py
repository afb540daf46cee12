"""Tiles print as players write them, parse back, and rank for the opening."""

from __future__ import annotations

import pytest

from games.bid import FULL_SET, Tile, parse_tile
from games.bid.tiles import opening_rank
from games.errors import Malformed, Reason


def test_the_set_has_28_distinct_tiles_including_double_blank() -> None:
    assert len(FULL_SET) == 28
    assert len(set(FULL_SET)) == 28
    assert Tile(0, 0) in FULL_SET
    assert sum(t.is_double for t in FULL_SET) == 7


@pytest.mark.parametrize("tile", FULL_SET)
def test_every_tile_prints_and_parses_back(tile: Tile) -> None:
    assert parse_tile(str(tile)) == tile


def test_a_tile_written_high_half_first_is_the_same_tile() -> None:
    assert parse_tile("[5|3]") == parse_tile("3|5") == Tile(3, 5)
    assert str(parse_tile("[5|3]")) == "[3|5]"


@pytest.mark.parametrize("text", ["[7|1]", "[3|-1]", "3-5", "", "[3|5", "[a|b]", "[3|5|6]"])
def test_a_tile_outside_the_double_six_set_is_malformed(text: str) -> None:
    with pytest.raises(Malformed) as err:
        parse_tile(text)
    assert err.value.reason is Reason.BAD_ARGUMENT
    assert repr(text) in str(err.value)


def test_any_double_outranks_every_non_double_for_the_opening() -> None:
    assert opening_rank(Tile(0, 0)) > opening_rank(Tile(5, 6))
    assert opening_rank(Tile(6, 6)) > opening_rank(Tile(5, 5))


def test_equal_pip_totals_rank_by_the_higher_half() -> None:
    assert opening_rank(Tile(3, 6)) > opening_rank(Tile(4, 5))
    assert opening_rank(Tile(4, 5)) > opening_rank(Tile(2, 6))
