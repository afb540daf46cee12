"""One recipient's Spectacular Bid view -> a BidView message.

The engine's view already holds only what its recipient may see (own hand, the drawn tile
to its holder only); this module adds nothing and drops nothing but ``Resign`` from the
legal commands, which the engine leaves out too.
"""

from __future__ import annotations

from photofinish.game.v1 import bid_pb2, game_pb2
from services.rules.codec.bid_commands import bid_command_to_proto
from services.rules.codec.board import (
    board_to_proto,
    counted_to_proto,
    maybe_tile_to_proto,
    open_point_to_proto,
    settlement_to_proto,
    tile_to_proto,
)
from services.rules.codec.common import (
    gate_to_proto,
    result_to_proto,
    seat_to_proto,
    seats_to_proto,
)
from services.rules.engine.bid import AuctionView, View


def view_to_proto(view: View) -> game_pb2.View:
    """Return ``view`` in the View envelope."""
    winner, termination = result_to_proto(view.outcome)
    last = view.last_settlement
    return game_pb2.View(
        bid=bid_pb2.BidView(
            seat=seat_to_proto(view.seat),
            version=view.version,
            round_no=view.round_no,
            hand=[tile_to_proto(tile) for tile in view.hand],
            hand_counts=list(view.hand_counts),
            boneyard_count=view.boneyard_count,
            board=board_to_proto(view.board),
            open_points=[open_point_to_proto(point) for point in view.open_points],
            counted=[counted_to_proto(counted) for counted in view.counted],
            end_sum=view.end_sum,
            balances=list(view.balances),
            jockey=seat_to_proto(view.jockey),
            auction=None if view.auction is None else _auction(view.auction),
            decide=seats_to_proto(view.decide),
            fresh=view.fresh,
            gate=gate_to_proto(view.gate),
            must_play=maybe_tile_to_proto(view.must_play),
            must_open_with=maybe_tile_to_proto(view.must_open_with),
            legal=[bid_command_to_proto(command) for command in view.legal],
            last_settlement=None if last is None else settlement_to_proto(last),
            winner=winner,
            termination=termination,
        )
    )


def _auction(auction: AuctionView) -> bid_pb2.BidAuction:
    return bid_pb2.BidAuction(
        bid=auction.bid,
        bidder=seat_to_proto(auction.bidder),
        cost=auction.cost,
        min_bid=auction.min_bid,
    )
