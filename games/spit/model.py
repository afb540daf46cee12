"""The Spit match state: each seat's five stock piles and spit pile, the centre, the phase.

Only the state's own fields decide what happens next; there is no hidden clock. Piles are
tuples listed bottom first, so ``pile[-1]`` is the top card. The state never stores which
stock cards are face up, because one rule settles it: **the top card of every non-empty
stock pile is face up, every card beneath it is face down** (rules §2.2, and §3.3 with the
automatic reveal of digital play). Spit piles are face down throughout; centre piles are
face up (only their top is shown).
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from games.decision import Outcome
from games.identity_enum import IdentityEnum
from games.seats import Seat
from games.spit.cards import Card

STOCK_PILES = 5
CENTRE_PILES = 2

Pile = tuple[Card, ...]
Stock = tuple[Pile, Pile, Pile, Pile, Pile]


class Options(msgspec.Struct, frozen=True):
    """How a match is set up. ``pausable`` is for matches against the computer (rules §7)."""

    pausable: bool = False


class Phase(IdentityEnum):
    """Where a match stands. Values are stored: never rename."""

    START = "start"  # dealt, waiting for both Ready before the first spit
    CONTINUE = "continue"  # next round dealt, waiting for both Ready
    PLAY = "play"  # both play at will
    BLOCKED = "blocked"  # nobody can go on: waiting for a Spit
    OVER = "over"


class Side(msgspec.Struct, frozen=True):
    """One seat's cards on the table: five stock piles and the spit pile (top last)."""

    stock: Stock
    spit: Pile

    def stock_count(self) -> int:
        """Return how many cards lie in the five stock piles."""
        return sum(len(pile) for pile in self.stock)

    def card_count(self) -> int:
        """Return how many cards this seat holds (stock piles and spit pile)."""
        return self.stock_count() + len(self.spit)

    def tops(self) -> Iterator[Card]:
        """Yield the face-up top card of each non-empty stock pile."""
        return (pile[-1] for pile in self.stock if pile)

    def face_down(self) -> Iterator[Card]:
        """Yield every card of this side that nobody may see."""
        for pile in self.stock:
            yield from pile[:-1]
        yield from self.spit


class State(msgspec.Struct, frozen=True):
    """A whole Spit match at one moment.

    ``spits`` counts every spit of the match (a numbered ``Spit`` must name the next one);
    ``reshuffles`` counts the gatherings of the centre piles, so each one draws its own
    seeded shuffle. ``pressed`` holds who has pressed Ready at the current gate.
    """

    seed: int
    version: int
    options: Options
    round_no: int
    phase: Phase
    sides: tuple[Side, Side]
    centre: tuple[Pile, Pile]
    pressed: frozenset[Seat]
    paused: bool
    spits: int
    reshuffles: int
    outcome: Outcome | None

    def all_cards(self) -> Iterator[Card]:
        """Yield every card in the match, wherever it lies."""
        for side in self.sides:
            for pile in side.stock:
                yield from pile
            yield from side.spit
        for pile in self.centre:
            yield from pile

    def face_down(self) -> frozenset[Card]:
        """Return every card nobody may see: stock cards beneath the tops, spit piles."""
        return frozenset(card for side in self.sides for card in side.face_down())
