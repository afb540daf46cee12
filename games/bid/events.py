"""Events: what one step did, in order, for the logs and the clients' animations.

Only :class:`Dealt` and :class:`Drew` carry secrets (the hands dealt, the tiles drawn);
pass every event tuple through :func:`games.bid.view.events_for` before it leaves the
server.
"""

from __future__ import annotations

from typing import TypeAlias

import msgspec

from games.bid.board import End
from games.bid.model import Settlement
from games.bid.tiles import Tile
from games.decision import Gate, Outcome
from games.seats import Seat


class Pressed(msgspec.Struct, frozen=True):
    """A seat pressed Start or Continue."""

    seat: Seat
    gate: Gate


class Dealt(msgspec.Struct, frozen=True):
    """A round was shuffled and dealt, ``hand_size`` tiles to each seat; ``hands`` by seat,
    each empty in everyone's copy but its holder's."""

    round_no: int
    boneyard_count: int
    hand_size: int
    hands: tuple[tuple[Tile, ...], tuple[Tile, ...]]


class Played(msgspec.Struct, frozen=True):
    """A tile joined the board at ``end`` (None: it opened); ``points`` moved to ``seat``."""

    seat: Seat
    tile: Tile
    end: End | None
    total: int
    points: int


class Drew(msgspec.Struct, frozen=True):
    """``seat`` drew ``count`` tiles; ``tiles`` is empty in everyone else's copy."""

    seat: Seat
    count: int
    tiles: tuple[Tile, ...] = ()


class Passed(msgspec.Struct, frozen=True):
    """``seat`` could neither play nor draw; the server passed for them (rules §4)."""

    seat: Seat
    forced: bool = True


class AuctionPassed(msgspec.Struct, frozen=True):
    """The non-jockey declined the auction: the jockey opens for free."""

    seat: Seat


class BidMade(msgspec.Struct, frozen=True):
    """``seat`` bid ``amount`` for the opening."""

    seat: Seat
    amount: int


class BidAccepted(msgspec.Struct, frozen=True):
    """``seat`` accepted; ``bidder`` paid ``paid`` (the bid after any discount) and opens."""

    seat: Seat
    bidder: Seat
    amount: int
    paid: int


class RoundEnded(msgspec.Struct, frozen=True):
    """A round was settled."""

    settlement: Settlement


class MatchEnded(msgspec.Struct, frozen=True):
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
