"""What happened in one step of a Spit match, as both players and spectators may hear it.

Spit has no per-seat secrets: a face-down card is hidden from its owner too. So no event
ever names a face-down card; a card appears in an event only at the moment it is (or
already was) face up — the played card, the card a reveal turns over, the spat card, the
new tops of a deal.
"""

from __future__ import annotations

import msgspec

from games.decision import Outcome
from games.seats import Seat
from games.spit.cards import Card


class Pressed(msgspec.Struct, frozen=True):
    """``seat`` pressed Ready."""

    seat: Seat


class Dealt(msgspec.Struct, frozen=True):
    """Round ``round_no`` was laid out for ``seat``: face-up tops, and face-down counts."""

    round_no: int
    seat: Seat
    tops: tuple[Card | None, ...]
    hidden: tuple[int, ...]
    spit_count: int


class Spat(msgspec.Struct, frozen=True):
    """``seat`` turned ``card`` from its spit pile onto centre pile ``pile`` (rules §3.1)."""

    seat: Seat
    pile: int
    card: Card


class Reshuffled(msgspec.Struct, frozen=True):
    """Both centre piles were gathered, shuffled and split into new spit piles."""

    spit_counts: tuple[int, int]


class Blocked(msgspec.Struct, frozen=True):
    """Nobody can go on: the next spit is due (rules §3.4)."""


class Played(msgspec.Struct, frozen=True):
    """``seat`` played ``card`` from stock pile ``stock`` onto centre pile ``pile``."""

    seat: Seat
    stock: int
    pile: int
    card: Card


class Moved(msgspec.Struct, frozen=True):
    """``seat`` moved ``card`` from stock pile ``src`` into the empty space ``dst``."""

    seat: Seat
    src: int
    dst: int
    card: Card


class Revealed(msgspec.Struct, frozen=True):
    """The card under a freed card was turned face up (rules §3.3, automatic)."""

    seat: Seat
    stock: int
    card: Card


class RoundEnded(msgspec.Struct, frozen=True):
    """``finisher`` emptied its stock piles and took centre pile ``taken`` (rules §3.5).

    ``card_counts`` is how many cards each seat holds for the next round.
    """

    round_no: int
    finisher: Seat
    taken: int
    card_counts: tuple[int, int]


class PausedBy(msgspec.Struct, frozen=True):
    """``seat`` paused the match."""

    seat: Seat


class ResumedBy(msgspec.Struct, frozen=True):
    """``seat`` resumed the match."""

    seat: Seat


class Ended(msgspec.Struct, frozen=True):
    """The match is over."""

    outcome: Outcome


Event = (
    Pressed
    | Dealt
    | Spat
    | Reshuffled
    | Blocked
    | Played
    | Moved
    | Revealed
    | RoundEnded
    | PausedBy
    | ResumedBy
    | Ended
)
