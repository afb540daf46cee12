"""Which plays and uncovering moves a seat has, and whether anyone can go on at all.

Rules §3.4 and the project's decision on blocked positions: a seat "can go on" when it has
a legal play (a stock top one rank above or below a centre top, K–A included) or a move
into an empty space that **uncovers** a face-down card. A move of a pile's only card into
an empty space uncovers nothing, so it does not count — and it is not allowed at all,
since a bot could shuffle a lone card between spaces forever.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.spit.cards import is_adjacent
from games.spit.model import Pile, Side


def plays(side: Side, centre: tuple[Pile, Pile]) -> Iterator[tuple[int, int]]:
    """Yield ``(stock, pile)`` for every stock top that may go onto a centre pile."""
    for pile_index, pile in enumerate(centre):
        if not pile:
            continue  # an empty centre pile has no top to be adjacent to
        top = pile[-1].rank
        for stock_index, stock in enumerate(side.stock):
            if stock and is_adjacent(stock[-1].rank, top):
                yield stock_index, pile_index


def uncovering_moves(side: Side) -> Iterator[tuple[int, int]]:
    """Yield ``(src, dst)`` for every move into an empty space that uncovers a card."""
    spaces = [index for index, pile in enumerate(side.stock) if not pile]
    for src, pile in enumerate(side.stock):
        if len(pile) > 1:
            for dst in spaces:
                yield src, dst


def can_go_on(sides: tuple[Side, Side], centre: tuple[Pile, Pile]) -> bool:
    """Return whether either seat has a play or an uncovering move (else: Spit, rules §3.4)."""
    # Hot path: runs after every applied command, so it avoids building generators.
    tops = [pile[-1].rank for pile in centre if pile]
    for side in sides:
        has_space = has_cover = False
        for stock in side.stock:
            if not stock:
                has_space = True
                continue
            if len(stock) > 1:
                has_cover = True
            rank = stock[-1].rank
            for top in tops:
                if (rank - top) % 13 in (1, 12):
                    return True
        if has_space and has_cover:
            return True
    return False
