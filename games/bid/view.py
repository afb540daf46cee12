"""What one seat (or a spectator) may see of a match, and their copy of the events.

Secrets (rules §2, §4): a seat sees its own hand and, after a draw, the tile it must
play; everyone sees only the *number* of tiles in the other hand and the boneyard, the
board, the balances, the auction and the decision. A spectator sees no hand at all. At a
blocked round's settlement only the pip totals are revealed, never the tiles. Dealt hands
and drawn tiles appear only in their holder's copy of a Dealt or Drew event.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

import msgspec
from msgspec.structs import replace

from games.bid import auction
from games.bid.board import Board, Counted, End
from games.bid.chips import Balances
from games.bid.commands import Command, Resign
from games.bid.events import Dealt, Drew, Event
from games.bid.model import Phase, Settlement, State
from games.bid.rules import decision, legal_commands
from games.bid.tiles import Tile
from games.decision import Gate, Outcome
from games.seats import Seat

_LOW_HIGH = attrgetter("low", "high")


class OpenPoint(msgspec.Struct, frozen=True):
    """An open point: its id (``end``, printed ``[1|4]:high``) and the value to match."""

    end: End
    value: int


class AuctionView(msgspec.Struct, frozen=True):
    """The auction as it stands: ``bid`` 0 before any, ``cost`` what its bidder would pay.

    ``discount`` comes off the jockey's own bids (never below 0, never paid out).
    """

    bid: int
    bidder: Seat | None
    cost: int
    min_bid: int
    discount: int


class View(msgspec.Struct, frozen=True):
    """One recipient's picture of the match (``seat`` None: a spectator).

    ``decide`` are the seats whose decision it is (at a gate: who still has to press),
    ``fresh`` whether it is a new decision. ``legal`` lists the viewer's own legal
    commands, bids amount by amount, without the always-available ``resign``; it is empty
    when the decision is not the viewer's. ``must_play`` (the drawn tile) and
    ``must_open_with`` are shown to their holder only.
    """

    seat: Seat | None
    version: int
    round_no: int
    hand: tuple[Tile, ...]
    hand_counts: tuple[int, int]
    boneyard_count: int
    board: Board
    open_points: tuple[OpenPoint, ...]
    counted: tuple[Counted, ...]
    end_sum: int
    balances: Balances
    jockey: Seat | None
    auction: AuctionView | None
    decide: tuple[Seat, ...]
    fresh: bool
    gate: Gate | None
    must_play: Tile | None
    must_open_with: Tile | None
    legal: tuple[Command, ...]
    last_settlement: Settlement | None
    outcome: Outcome | None


def view(state: State, seat: Seat | None) -> View:
    """Return what ``seat`` may see of ``state`` (None: a spectator)."""
    return views(state, (seat,))[0]


def views(state: State, seats: Sequence[Seat | None]) -> list[View]:
    """Return ``view(state, seat)`` for each of ``seats``: what everyone sees built once,
    each seat's own (hand, drawn tile, legal commands) added to it."""
    told_to = tolds(state, seats)
    public = _public(state, told_to[0])
    return [_own(state, public, seat, told) for seat, told in zip(seats, told_to, strict=True)]


def _public(state: State, told: Told) -> View:
    """Return the spectators' view: what everyone at the table sees (``told``: any
    recipient's, whose shared part is everyone's)."""
    board = state.board
    return View(
        seat=None,
        version=told.version,
        round_no=state.round_no,
        hand=(),
        hand_counts=(len(state.hands[0]), len(state.hands[1])),
        boneyard_count=len(state.boneyard),
        board=board,
        open_points=tuple(OpenPoint(end, end.value) for end in board.ends),
        counted=board.counted(),
        end_sum=board.total,
        balances=state.balances,
        jockey=state.jockey,
        auction=told.auction,
        decide=told.decide,
        fresh=told.fresh,
        gate=told.gate,
        must_play=None,
        must_open_with=None,
        legal=(),
        last_settlement=state.last_settlement,
        outcome=state.outcome,
    )


def _own(state: State, public: View, seat: Seat | None, told: Told) -> View:
    """Return ``public`` as ``seat`` sees it: its own hand, and what ``told`` gives it alone
    (secrets reach only their holder)."""
    if seat is None:
        return public
    return replace(
        public,
        seat=seat,
        hand=tuple(sorted(state.hands[seat], key=_LOW_HIGH)),
        must_play=told.must_play,
        must_open_with=told.must_open_with,
        legal=told.legal,
    )


class Told(msgspec.Struct, frozen=True):
    """What a view shows that its step's events do not tell: the state's version, the
    decision, the auction as it stands (its cost and minimum follow from options the view
    does not carry), and the viewer's own part of the decision: its drawn tile, its
    obligatory opening, its legal commands."""

    version: int
    decide: tuple[Seat, ...]
    fresh: bool
    gate: Gate | None
    auction: AuctionView | None
    must_play: Tile | None
    must_open_with: Tile | None
    legal: tuple[Command, ...]


def told(state: State, seat: Seat | None) -> Told:
    """Return what ``seat``'s view of ``state`` shows beyond its step's events: the fields
    of ``view(state, seat)`` they do not tell, without building the rest."""
    return tolds(state, (seat,))[0]


def tolds(state: State, seats: Sequence[Seat | None]) -> list[Told]:
    """Return ``told(state, seat)`` for each of ``seats``, what they share built once."""
    now = decision(state)
    decide, auction = tuple(sorted(now.seats)), _auction(state)
    told_to = []
    for seat in seats:
        own = seat is not None and seat in now.seats
        told_to.append(
            Told(
                version=state.version,
                decide=decide,
                fresh=now.fresh,
                gate=now.gate,
                auction=auction,
                must_play=state.drawn if own else None,
                must_open_with=state.must_open_with if seat == state.to_act else None,
                legal=_legal(state, seat) if own else (),
            )
        )
    return told_to


def _auction(state: State) -> AuctionView | None:
    if state.phase is not Phase.AUCTION or state.outcome is not None:
        return None
    cost = 0 if state.bidder is None else auction.net_payment(state, state.bidder, state.bid)
    discount = state.options.jockey_discount
    return AuctionView(state.bid, state.bidder, cost, auction.min_bid(state), discount)


def _legal(state: State, seat: Seat | None) -> tuple[Command, ...]:
    assert seat is not None
    legal = tuple(legal_commands(state, seat))
    assert isinstance(legal[-1], Resign)  # always listed, and listed last
    return legal[:-1]


def events_for(events: tuple[Event, ...], seat: Seat | None) -> tuple[Event, ...]:
    """Return ``events`` as ``seat`` may see them: others' hands and drawn tiles removed."""
    if not any(_secret(e, seat) for e in events):
        return events
    return tuple(_as_heard_by(e, seat) if _secret(e, seat) else e for e in events)


def _secret(event: Event, seat: Seat | None) -> bool:
    """Return whether ``event`` names a tile ``seat`` may not see."""
    if isinstance(event, Drew):
        return event.seat != seat and bool(event.tiles)
    if isinstance(event, Dealt):
        return any(hand for holder, hand in enumerate(event.hands) if holder != seat)
    return False


def _as_heard_by(event: Event, seat: Seat | None) -> Event:
    if isinstance(event, Drew):
        return Drew(event.seat, event.count)
    if isinstance(event, Dealt):
        own = event.hands[seat] if seat is not None else ()
        hands = (own, ()) if seat == 0 else ((), own)
        return Dealt(event.round_no, event.boneyard_count, event.hand_size, hands)
    return event
