"""The match state: one frozen value holding everything, secrets included.

The state never leaves the server as is: players and spectators see it only through
:func:`games.bid.view.view`. It is MessagePack-encodable (arbitration
snapshots it) and carries the match ``seed``, from which every round's shuffle is derived,
so a match replays exactly from (options, seed, commands).
"""

from __future__ import annotations

import msgspec

from games.bid.board import Board
from games.bid.chips import Balances
from games.bid.tiles import Tile
from games.decision import Gate, Outcome
from games.identity_enum import IdentityEnum
from games.seats import Seat


class Options(msgspec.Struct, frozen=True):
    """Match settings; the defaults are the rules (§1, §2, §6)."""

    start_balance: int = 150  # each; the two balances always sum to twice this
    hand_size: int = 7  # the other 28 - 2 * hand_size tiles form the boneyard
    min_bid: int = 15  # the opening bid of an auction
    bid_step: int = 5  # every bid is a multiple of this and raises by at least this
    jockey_discount: int = 15  # off the jockey's own winning bid, never below 0

    def __post_init__(self) -> None:
        if self.start_balance <= 0 or not 1 <= self.hand_size <= 14:
            raise ValueError(f"impossible options: {self}")
        if self.bid_step <= 0 or self.min_bid <= 0 or self.min_bid % self.bid_step:
            raise ValueError(f"bids must be positive multiples of the step: {self}")
        if self.jockey_discount < 0:
            raise ValueError(f"the jockey discount cannot be negative: {self}")


class Phase(IdentityEnum):
    """What the round is doing (at a gate: what starts once both seats have pressed)."""

    AUCTION = "auction"
    PLAY = "play"


class SettlementKind(IdentityEnum):
    """How a round ended. Values are stored: never rename."""

    WENT_OUT = "went_out"
    BLOCKED = "blocked"


class Settlement(msgspec.Struct, frozen=True):
    """The end of a round, as everyone may see it.

    ``seat`` went out (WENT_OUT) or won the block (BLOCKED; None on equal totals).
    ``pips`` are the hand totals revealed at a block — only totals, never tiles (rules
    §4). ``transfer`` is what the settlement itself moved to ``seat``, after capping.
    """

    round_no: int
    kind: SettlementKind
    seat: Seat | None
    pips: tuple[int, int] | None = None
    transfer: int = 0


class State(msgspec.Struct, frozen=True):
    """Everything about a match at one moment.

    ``to_act`` is the seat whose decision it is once no gate is pending. ``bid`` is the
    standing auction bid (0 before any) made by ``bidder``. ``must_open_with`` is the tile
    the opener is obliged to play (rank opening) and ``drawn`` the drawn tile that must be
    played now. ``pressed`` lists the seats that pressed at the current ``gate``.
    ``version`` counts applied steps: each transition (one command, or a forfeit)
    returns the state with its version incremented once.
    """

    options: Options
    seed: int
    version: int
    round_no: int
    balances: Balances
    hands: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    boneyard: tuple[Tile, ...]
    board: Board
    phase: Phase
    to_act: Seat
    gate: Gate | None = None
    pressed: tuple[Seat, ...] = ()
    jockey: Seat | None = None
    bid: int = 0
    bidder: Seat | None = None
    must_open_with: Tile | None = None
    drawn: Tile | None = None
    last_settlement: Settlement | None = None
    outcome: Outcome | None = None
