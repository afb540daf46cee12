"""Tiles: the double-six set of 28 dominoes, printed as players write them ("[3|5]").

A tile is stored with its smaller half first, so "[5|3]" and "[3|5]" name the same tile
and a tile prints the one way it parses back (rules §2: the full double-six set,
[0|0] included).
"""

from __future__ import annotations

import msgspec

from games.errors import Malformed, Reason

MAX_PIPS = 6


class Tile(msgspec.Struct, frozen=True, order=True):
    """One domino; ``low <= high``."""

    low: int
    high: int

    def __str__(self) -> str:
        return f"[{self.low}|{self.high}]"

    @property
    def is_double(self) -> bool:
        """Return whether both halves show the same number."""
        return self.low == self.high

    @property
    def pips(self) -> int:
        """Return the tile's pip total."""
        return self.low + self.high

    def has(self, value: int) -> bool:
        """Return whether either half shows ``value``."""
        return self.low == value or self.high == value


def _full_set() -> tuple[Tile, ...]:
    return tuple(
        Tile(low, high) for low in range(MAX_PIPS + 1) for high in range(low, MAX_PIPS + 1)
    )


FULL_SET: tuple[Tile, ...] = _full_set()
_BY_TEXT: dict[str, Tile] = {}
for _tile in FULL_SET:
    for _a, _b in ((_tile.low, _tile.high), (_tile.high, _tile.low)):
        _BY_TEXT[f"[{_a}|{_b}]"] = _tile
        _BY_TEXT[f"{_a}|{_b}"] = _tile


def parse_tile(text: str) -> Tile:
    """Return the tile written ``text`` ("[3|5]", "3|5", "[5|3]").

    Raises:
        Malformed: when ``text`` names no tile of the double-six set.
    """
    tile = _BY_TEXT.get(text.strip())
    if tile is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"{text!r} is not a double-six tile like [3|5]")
    return tile


def opening_rank(tile: Tile) -> tuple[int, int, int]:
    """Return the key by which tiles compete to open a round (rules §2).

    Any double beats every non-double, higher doubles first; without doubles the larger
    pip total wins and a tie goes to the higher half ([3|6] beats [4|5]).
    """
    return (1 if tile.is_double else 0, tile.pips, tile.high)
