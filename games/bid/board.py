"""The line of play: where tiles joined, which points are open, and what the ends count.

Geometry (rules §3). Every placed tile has *ports*, the places something can join it:

- a non-double has ``low`` and ``high`` (its two halves);
- a double has ``straight-a`` and ``straight-b`` (its main arms); the spinner also has
  ``branch-a`` and ``branch-b`` (its side branches).

An open point is identified by the pair (tile on the board, port), printed
``[1|1]:branch-a``; the pair never changes meaning during a round, so it is a stable id.
A joining double always attaches by its ``straight-a`` and leaves ``straight-b`` open; a
joining non-double attaches by the half equal to the point's value.

Only the first double played is the spinner, whether it opens or joins later. Its
branches open only once both main arms are filled. Counting (rules §3, and the worked
table): an open non-double half counts its pips; an exposed later double counts both
halves; the spinner counts both halves once while its main arms are not both filled and
nothing afterwards, so its unused branches count 0. A lone tile therefore counts its pip
total once: [1|4] → 5, [2|2] → 4, [0|0] → 0.
"""

from __future__ import annotations

import msgspec

from games.bid.tiles import Tile, parse_tile
from games.errors import Malformed, Reason
from games.identity_enum import IdentityEnum


class Port(IdentityEnum):
    """Where on a placed tile another tile can join. Values are stored: never rename."""

    LOW = "low"
    HIGH = "high"
    STRAIGHT_A = "straight-a"
    STRAIGHT_B = "straight-b"
    BRANCH_A = "branch-a"
    BRANCH_B = "branch-b"


_HALF_PORTS = frozenset({Port.LOW, Port.HIGH})
_STRAIGHTS = frozenset({Port.STRAIGHT_A, Port.STRAIGHT_B})
_PORTS_BY_NAME = {port.value: port for port in Port}


class End(msgspec.Struct, frozen=True):
    """An open point's id: one port of one tile on the board, printed ``[1|4]:high``."""

    tile: Tile
    port: Port

    def __str__(self) -> str:
        return f"{self.tile}:{self.port.value}"

    @property
    def value(self) -> int:
        """Return the number a tile must show to join here."""
        return self.tile.low if self.port is Port.LOW else self.tile.high


def parse_end(text: str) -> End:
    """Return the open-point id written ``text`` ("[1|4]:high", "[1|1]:branch-a").

    Raises:
        Malformed: when ``text`` cannot name a port of any tile (a double has no
            ``low``; a non-double has no ``straight-a``).
    """
    tile_text, sep, port_text = text.strip().partition(":")
    port = _PORTS_BY_NAME.get(port_text.strip().lower())
    if not sep or port is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"{text!r} is not an end like [1|4]:high")
    tile = parse_tile(tile_text)
    if (port in _HALF_PORTS) == tile.is_double:
        raise Malformed(Reason.BAD_ARGUMENT, f"{text!r}: {tile} has no {port.value} port")
    return End(tile, port)


class Placement(msgspec.Struct, frozen=True):
    """A tile on the board and where it joined (``on`` is None for the opening tile)."""

    tile: Tile
    on: End | None = None
    via: Port | None = None


class Counted(msgspec.Struct, frozen=True):
    """One contribution to the end sum (the spinner's two halves are one contribution)."""

    tile: Tile
    points: int


class Board(msgspec.Struct, frozen=True):
    """The tiles played this round, the open points in a stable order, and the end sum."""

    placements: tuple[Placement, ...] = ()
    ends: tuple[End, ...] = ()
    spinner: Tile | None = None
    branches_open: bool = False
    total: int = 0

    @property
    def is_empty(self) -> bool:
        """Return whether no tile has been played yet this round."""
        return not self.placements

    def counted(self) -> tuple[Counted, ...]:
        """Return the contributions that make up :attr:`total`, in board order."""
        return _count(self.ends, self.spinner, self.branches_open)


def place(board: Board, tile: Tile, end: End | None) -> Board:
    """Return the board after ``tile`` joins at ``end`` (None opens the round).

    The caller has checked that the play is legal (``end`` is open and matches).
    """
    if board.is_empty:
        return _open(tile)
    assert end is not None
    value = end.value
    spinner = board.spinner
    if tile.is_double:
        # Rules §3: a joining double attaches by a main arm; it is the spinner only if
        # no double has been played before it.
        via, fresh = Port.STRAIGHT_A, End(tile, Port.STRAIGHT_B)
        if spinner is None:
            spinner = tile
    elif tile.low == value:
        via, fresh = Port.LOW, End(tile, Port.HIGH)
    else:
        via, fresh = Port.HIGH, End(tile, Port.LOW)
    ends = list(board.ends)
    ends[ends.index(end)] = fresh
    branches_open = board.branches_open
    if (
        not branches_open
        and end.port in _STRAIGHTS
        and end.tile == board.spinner
        and not any(e.tile == spinner and e.port in _STRAIGHTS for e in ends)
    ):
        # Both main arms filled: the side branches open (rules §3).
        assert spinner is not None
        branches_open = True
        ends += (End(spinner, Port.BRANCH_A), End(spinner, Port.BRANCH_B))
    placements = (*board.placements, Placement(tile, end, via))
    return Board(placements, tuple(ends), spinner, branches_open, total_after(board, tile, end))


def total_after(board: Board, tile: Tile, end: End | None) -> int:
    """Return the end sum ``board`` would have after ``tile`` joins at ``end``.

    Incremental: the covered end stops counting and the new tile's exposed end starts.
    """
    if board.is_empty or end is None:
        return tile.pips  # a lone tile counts its pip total once
    return total_covering(board, end) + exposed(tile, end.value)


def total_covering(board: Board, end: End) -> int:
    """Return the end sum of ``board`` once ``end`` is covered, before the new tile counts."""
    covered = end.tile
    if not covered.is_double:
        return board.total - end.value
    if covered != board.spinner:
        return board.total - covered.pips
    if board.branches_open:
        return board.total  # an unused branch counted 0
    # Filling the spinner's last open main arm stops its halves counting.
    other_arm_open = any(
        e.tile == covered and e.port in _STRAIGHTS and e.port is not end.port for e in board.ends
    )
    return board.total if other_arm_open else board.total - covered.pips


def exposed(tile: Tile, value: int) -> int:
    """Return what ``tile`` counts once joined by its ``value`` half at an end."""
    if tile.is_double:
        # A joining double shows both halves, as the new spinner or as a later double.
        return tile.pips
    return tile.high if tile.low == value else tile.low


def _open(tile: Tile) -> Board:
    if tile.is_double:
        ends = (End(tile, Port.STRAIGHT_A), End(tile, Port.STRAIGHT_B))
        return Board((Placement(tile),), ends, tile, False, tile.pips)
    ends = (End(tile, Port.LOW), End(tile, Port.HIGH))
    return Board((Placement(tile),), ends, None, False, tile.pips)


def _count(
    ends: list[End] | tuple[End, ...], spinner: Tile | None, branches_open: bool
) -> tuple[Counted, ...]:
    counted: list[Counted] = []
    spinner_counted = False
    for end in ends:
        tile = end.tile
        if not tile.is_double:
            counted.append(Counted(tile, end.value))
        elif tile != spinner:
            counted.append(Counted(tile, tile.pips))  # an exposed later double: both halves
        elif not branches_open and not spinner_counted:
            # The spinner's halves count once, however many of its arms are open.
            counted.append(Counted(tile, tile.pips))
            spinner_counted = True
    return tuple(counted)


def points_for(total: int) -> int:
    """Return the points an end sum scores: itself when a positive multiple of 5, else 0."""
    return total if total > 0 and total % 5 == 0 else 0
