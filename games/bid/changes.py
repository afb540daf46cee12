"""A Spectacular Bid view brought forward by one step: the last view, the step's events as
its viewer hears them, and what the view shows beyond them (``Told``).

What a client that keeps its view does with an update that carries no view: the board,
the hands, the chips and the round follow from the events (the board by the same
``place`` the rules use); the decision, the auction and the viewer's own part of the
decision come told. Checked
against :func:`games.bid.view.view` after every step of long random matches
(tests/games/bid/test_properties.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

from games.bid.board import Board, place
from games.bid.chips import Balances
from games.bid.events import BidAccepted, Dealt, Drew, Event, MatchEnded, Played, RoundEnded
from games.bid.model import SettlementKind
from games.bid.view import OpenPoint, Told, View
from games.seats import Seat, other

_LOW_HIGH = attrgetter("low", "high")


def changed(view: View, events: Iterable[Event], told: Told) -> View:
    """Return ``view`` after the step whose ``events`` and ``told`` are given."""
    hand, counts = list(view.hand), list(view.hand_counts)
    board, boneyard, balances = view.board, view.boneyard_count, view.balances
    round_no, jockey, settled = view.round_no, view.jockey, view.last_settlement
    outcome = view.outcome
    for event in events:
        match event:
            case Dealt(round_no=dealt_round, boneyard_count=left, hand_size=size, hands=hands):
                round_no, boneyard, board, counts = dealt_round, left, Board(), [size, size]
                hand = list(hands[view.seat]) if view.seat is not None else []
                if settled is not None:  # the round just settled names the new jockey
                    jockey = settled.seat if settled.kind is SettlementKind.WENT_OUT else None
            case Played(seat=seat, tile=tile, end=end, points=points):
                board = place(board, tile, end)
                counts[seat] -= 1
                if seat == view.seat:
                    hand.remove(tile)
                balances = _paid(balances, seat, points)
            case Drew(seat=seat, count=count, tiles=tiles):
                counts[seat] += count
                boneyard -= count
                if seat == view.seat:
                    hand += tiles
            case BidAccepted(bidder=bidder, paid=paid):
                balances = _paid(balances, other(bidder), paid)
            case RoundEnded(settlement=settlement):
                settled = settlement
                if settlement.seat is not None:
                    balances = _paid(balances, settlement.seat, settlement.transfer)
            case MatchEnded(outcome=ended):
                outcome = ended
    return View(
        seat=view.seat,
        version=told.version,
        round_no=round_no,
        hand=tuple(sorted(hand, key=_LOW_HIGH)),
        hand_counts=(counts[0], counts[1]),
        boneyard_count=boneyard,
        board=board,
        open_points=tuple(OpenPoint(end, end.value) for end in board.ends),
        counted=board.counted(),
        end_sum=board.total,
        balances=balances,
        jockey=jockey,
        auction=told.auction,
        decide=told.decide,
        fresh=told.fresh,
        gate=told.gate,
        must_play=told.must_play,
        must_open_with=told.must_open_with,
        legal=told.legal,
        last_settlement=settled,
        outcome=outcome,
    )


def _paid(balances: Balances, to: Seat, amount: int) -> Balances:
    """Return ``balances`` after ``amount`` moved to ``to`` from the other seat."""
    if to == 0:
        return (balances[0] + amount, balances[1] - amount)
    return (balances[0] - amount, balances[1] + amount)
