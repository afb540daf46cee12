"""One recipient's Spectacular Bid view <-> a BidView message.

The engine's view already holds only what its recipient may see (own hand, the drawn tile
to its holder only); this module adds nothing and drops nothing but ``Resign`` from the
legal commands, which the engine leaves out too. Clients (the bot pool) decode a BidView
back into the engine's view: the exact inverse, the auction's jockey discount included
(it is not on the wire; see :func:`view_from_proto`).
"""

from __future__ import annotations

from games.bid import AuctionView, Options, View
from games.bid.codec.board import (
    board_from_proto,
    board_to_proto,
    counted_from_proto,
    counted_to_proto,
    maybe_tile_from_proto,
    maybe_tile_to_proto,
    open_point_from_proto,
    open_point_to_proto,
    settlement_from_proto,
    settlement_to_proto,
    tile_from_proto,
    tile_to_proto,
)
from games.bid.codec.commands import bid_command_to_proto, command_from_proto
from games.codec import (
    gate_from_proto,
    gate_to_proto,
    pair_from_proto,
    result_from_proto,
    result_to_proto,
    seat_from_proto,
    seat_to_proto,
    seats_from_proto,
    seats_to_proto,
)
from games.errors import Malformed, Reason
from photofinish.game.v1 import bid_pb2, game_pb2

# Bid's wire options never change the rules' defaults (codec.bid.options_from_proto), so
# every match on the wire has the default discount; a BidAuction does not carry it.
_JOCKEY_DISCOUNT = Options().jockey_discount


def view_to_proto(view: View) -> game_pb2.View:
    """Return ``view`` in the View envelope."""
    bid_view = _public(view)
    bid_view.MergeFrom(_own(view))
    bid_view.board.CopyFrom(board_to_proto(view.board))
    return game_pb2.View(bid=bid_view)


def _public(view: View) -> bid_pb2.BidView:
    """Return the fields of ``view`` everyone sees, but the board."""
    winner, termination = result_to_proto(view.outcome)
    last = view.last_settlement
    return bid_pb2.BidView(
        version=view.version,
        round_no=view.round_no,
        hand_counts=list(view.hand_counts),
        boneyard_count=view.boneyard_count,
        open_points=[open_point_to_proto(point) for point in view.open_points],
        counted=[counted_to_proto(counted) for counted in view.counted],
        end_sum=view.end_sum,
        balances=list(view.balances),
        jockey=seat_to_proto(view.jockey),
        auction=None if view.auction is None else auction_to_proto(view.auction),
        decide=seats_to_proto(view.decide),
        fresh=view.fresh,
        gate=gate_to_proto(view.gate),
        last_settlement=None if last is None else settlement_to_proto(last),
        winner=winner,
        termination=termination,
    )


def _own(view: View) -> bid_pb2.BidView:
    """Return the fields of ``view`` that are its seat's alone."""
    return bid_pb2.BidView(
        seat=seat_to_proto(view.seat),
        hand=[tile_to_proto(tile) for tile in view.hand],
        must_play=maybe_tile_to_proto(view.must_play),
        must_open_with=maybe_tile_to_proto(view.must_open_with),
        legal=[bid_command_to_proto(command) for command in view.legal],
    )


def auction_to_proto(auction: AuctionView) -> bid_pb2.BidAuction:
    """Return the auction as it stands (its discount is the rules' default)."""
    return bid_pb2.BidAuction(
        bid=auction.bid,
        bidder=seat_to_proto(auction.bidder),
        cost=auction.cost,
        min_bid=auction.min_bid,
    )


def view_from_proto(message: game_pb2.View) -> View:
    """Return the engine view a View envelope carries: the inverse of :func:`view_to_proto`.

    The board's open points and end sum come from the view's ``open_points`` and
    ``end_sum`` (the engine's board holds the same values); the auction's ``discount``
    is the rules' default (see ``_JOCKEY_DISCOUNT``).

    Raises:
        Malformed: BAD_ARGUMENT when it holds no Bid view, or a tile, end, command, gate
            or shape no Bid view has; NO_SUCH_SEAT for an impossible seat.
    """
    if message.WhichOneof("kind") != "bid":
        kind = message.WhichOneof("kind")
        raise Malformed(Reason.BAD_ARGUMENT, f"expected a Spectacular Bid view, not {kind}")
    wire = message.bid
    open_points = tuple(open_point_from_proto(point) for point in wire.open_points)
    return View(
        seat=seat_from_proto(wire.seat),
        version=wire.version,
        round_no=wire.round_no,
        hand=tuple(tile_from_proto(tile) for tile in wire.hand),
        hand_counts=pair_from_proto(wire.hand_counts, "hand counts"),
        boneyard_count=wire.boneyard_count,
        board=board_from_proto(wire.board, open_points, wire.end_sum),
        open_points=open_points,
        counted=tuple(counted_from_proto(counted) for counted in wire.counted),
        end_sum=wire.end_sum,
        balances=pair_from_proto(wire.balances, "balances"),
        jockey=seat_from_proto(wire.jockey),
        auction=auction_from_proto(wire.auction) if wire.HasField("auction") else None,
        decide=seats_from_proto(wire.decide),
        fresh=wire.fresh,
        gate=gate_from_proto(wire.gate),
        must_play=maybe_tile_from_proto(wire.must_play if wire.HasField("must_play") else None),
        must_open_with=maybe_tile_from_proto(
            wire.must_open_with if wire.HasField("must_open_with") else None
        ),
        legal=tuple(command_from_proto(game_pb2.Command(bid=command)) for command in wire.legal),
        last_settlement=(
            settlement_from_proto(wire.last_settlement)
            if wire.HasField("last_settlement")
            else None
        ),
        outcome=result_from_proto(wire.winner, wire.termination),
    )


def auction_from_proto(auction: bid_pb2.BidAuction) -> AuctionView:
    """Return the auction a BidAuction carries, with the rules' default discount."""
    return AuctionView(
        bid=auction.bid,
        bidder=seat_from_proto(auction.bidder),
        cost=auction.cost,
        min_bid=auction.min_bid,
        discount=_JOCKEY_DISCOUNT,
    )
