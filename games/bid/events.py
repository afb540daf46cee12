"""Events: what one step did, in order, for the logs and the clients' animations.

Only :class:`Dealt` and :class:`Drew` carry secrets (the hands dealt, the tiles drawn);
pass every event tuple through :func:`games.bid.view.events_for` before it leaves the
server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from games.bid.board import End
from games.bid.model import Settlement
from games.bid.tiles import Tile
from games.decision import Gate, Outcome
from games.seats import Seat


@dataclass(frozen=True, slots=True)
class Pressed:
    """A seat pressed Start or Continue."""

    seat: Seat
    gate: Gate


@dataclass(frozen=True, slots=True)
class Dealt:
    """A round was shuffled and dealt, ``hand_size`` tiles to each seat; ``hands`` by seat,
    each empty in everyone's copy but its holder's."""

    round_no: int
    boneyard_count: int
    hand_size: int
    hands: tuple[tuple[Tile, ...], tuple[Tile, ...]]


@dataclass(frozen=True, slots=True)
class Played:
    """A tile joined the board at ``end`` (None: it opened); ``points`` moved to ``seat``."""

    seat: Seat
    tile: Tile
    end: End | None
    total: int
    points: int


@dataclass(frozen=True, slots=True)
class Drew:
    """``seat`` drew ``count`` tiles; ``tiles`` is empty in everyone else's copy."""

    seat: Seat
    count: int
    tiles: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class Passed:
    """``seat`` could neither play nor draw; the server passed for them (rules §4)."""

    seat: Seat
    forced: bool = True


@dataclass(frozen=True, slots=True)
class AuctionPassed:
    """The non-jockey declined the auction: the jockey opens for free."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class BidMade:
    """``seat`` bid ``amount`` for the opening."""

    seat: Seat
    amount: int


@dataclass(frozen=True, slots=True)
class BidAccepted:
    """``seat`` accepted; ``bidder`` paid ``paid`` (the bid after any discount) and opens."""

    seat: Seat
    bidder: Seat
    amount: int
    paid: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round was settled."""

    settlement: Settlement


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over."""

    outcome: Outcome


Event: TypeAlias = (
    Pressed
    | Dealt
    | Played
    | Drew
    | Passed
    | AuctionPassed
    | BidMade
    | BidAccepted
    | RoundEnded
    | MatchEnded
)
