"""One recipient's Spit view -> a SpitView message.

Only face-up cards appear: each stock pile's top and each centre pile's top; everything
face down is a count, for its owner too (the engine's view holds nothing more).
"""

from __future__ import annotations

from photofinish.game.v1 import game_pb2, spit_pb2
from services.rules.codec.cards import maybe_card_to_proto
from services.rules.codec.common import (
    gate_to_proto,
    result_to_proto,
    seat_to_proto,
    seats_to_proto,
)
from services.rules.engine.spit import CentreView, SideView, StockView, View


def view_to_proto(view: View) -> game_pb2.View:
    """Return ``view`` in the View envelope."""
    winner, termination = result_to_proto(view.outcome)
    return game_pb2.View(
        spit=spit_pb2.SpitView(
            seat=seat_to_proto(view.seat),
            version=view.version,
            round_no=view.round_no,
            pausable=view.pausable,
            sides=[_side(side) for side in view.sides],
            centre=[_centre(pile) for pile in view.centre],
            gate=gate_to_proto(view.gate),
            paused=view.paused,
            must_press=seats_to_proto(view.must_press),
            spits=view.spits,
            winner=winner,
            termination=termination,
        )
    )


def stock_pile_to_proto(pile: StockView) -> spit_pb2.StockPile:
    """Return one stock pile: its face-up top (if any) and the face-down count."""
    return spit_pb2.StockPile(top=maybe_card_to_proto(pile.top), hidden=pile.hidden)


def _side(side: SideView) -> spit_pb2.SpitSide:
    return spit_pb2.SpitSide(
        stock=[stock_pile_to_proto(pile) for pile in side.stock], spit_count=side.spit_count
    )


def _centre(pile: CentreView) -> spit_pb2.CentrePile:
    return spit_pb2.CentrePile(top=maybe_card_to_proto(pile.top), size=pile.size)
