"""One recipient's Spit view <-> a SpitView message.

Only face-up cards appear: each stock pile's top and each centre pile's top; everything
face down is a count, for its owner too (the engine's view holds nothing more). Clients
(the bot pool) decode a SpitView back into the engine's view: the exact inverse.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from dataclasses import fields
from typing import TypeVar

from games.codec import (
    gate_from_proto,
    gate_to_proto,
    length_delimited,
    result_from_proto,
    result_to_proto,
    seat_from_proto,
    seat_to_proto,
    seats_from_proto,
    seats_to_proto,
)
from games.errors import Malformed, Reason
from games.spit import CentreView, SideView, StockView, View
from games.spit.codec.cards import maybe_card_from_proto, maybe_card_to_proto
from photofinish.game.v1 import game_pb2, spit_pb2

T = TypeVar("T")


_SPIT_FIELD = game_pb2.View.DESCRIPTOR.fields_by_name["spit"].number
# What a view shows but its seat: one step's views share these objects (``views``), so
# comparing them costs an identity check each.
_shown = operator.attrgetter(*(field.name for field in fields(View) if field.name != "seat"))


def views_to_bytes(views: Sequence[View]) -> list[bytes]:
    """Return a step's views, each an encoded View.

    Everything a Spit view shows is public (face-down cards are counts, for their owner
    too), so a step's views differ by whose they are: the rest is encoded once, when it
    is equal, and each recipient's seat joined to it.
    """
    first = views[0]
    if any(_shown(view) != _shown(first) for view in views[1:]):
        return [view_to_proto(view).SerializeToString() for view in views]
    shared = _spit_view(first, with_seat=False).SerializeToString()
    return [
        length_delimited(
            _SPIT_FIELD,
            shared + spit_pb2.SpitView(seat=seat_to_proto(view.seat)).SerializeToString(),
        )
        for view in views
    ]


def view_to_proto(view: View) -> game_pb2.View:
    """Return ``view`` in the View envelope."""
    return game_pb2.View(spit=_spit_view(view))


def _spit_view(view: View, with_seat: bool = True) -> spit_pb2.SpitView:
    winner, termination = result_to_proto(view.outcome)
    return spit_pb2.SpitView(
        seat=seat_to_proto(view.seat) if with_seat else 0,
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


@functools.lru_cache(maxsize=4096)
def stock_pile_to_proto(pile: StockView) -> spit_pb2.StockPile:
    """Return one stock pile: its face-up top (if any) and the face-down count (a shared
    message, as ``card_to_proto``'s)."""
    return spit_pb2.StockPile(top=maybe_card_to_proto(pile.top), hidden=pile.hidden)


def _side(side: SideView) -> spit_pb2.SpitSide:
    return spit_pb2.SpitSide(
        stock=[stock_pile_to_proto(pile) for pile in side.stock], spit_count=side.spit_count
    )


@functools.lru_cache(maxsize=4096)
def _centre(pile: CentreView) -> spit_pb2.CentrePile:
    return spit_pb2.CentrePile(top=maybe_card_to_proto(pile.top), size=pile.size)


def view_from_proto(message: game_pb2.View) -> View:
    """Return the engine view a View envelope carries: the inverse of :func:`view_to_proto`.

    Raises:
        Malformed: BAD_ARGUMENT when it holds no Spit view, or a card, gate or shape no
            Spit view has; NO_SUCH_SEAT for an impossible seat.
    """
    if message.WhichOneof("kind") != "spit":
        kind = message.WhichOneof("kind")
        raise Malformed(Reason.BAD_ARGUMENT, f"expected a Spit view, not {kind}")
    wire = message.spit
    return View(
        seat=seat_from_proto(wire.seat),
        version=wire.version,
        round_no=wire.round_no,
        pausable=wire.pausable,
        sides=_two(tuple(_side_from_proto(side) for side in wire.sides), "sides"),
        centre=_two(tuple(_centre_from_proto(pile) for pile in wire.centre), "centre piles"),
        gate=gate_from_proto(wire.gate),
        paused=wire.paused,
        must_press=frozenset(seats_from_proto(wire.must_press)),
        spits=wire.spits,
        outcome=result_from_proto(wire.winner, wire.termination),
    )


def _two(items: tuple[T, ...], what: str) -> tuple[T, T]:
    if len(items) != 2:
        raise Malformed(Reason.BAD_ARGUMENT, f"a Spit view has two {what}, not {len(items)}")
    return items[0], items[1]


def _side_from_proto(side: spit_pb2.SpitSide) -> SideView:
    stock = tuple(
        StockView(top=maybe_card_from_proto(_top(pile)), hidden=pile.hidden) for pile in side.stock
    )
    return SideView(stock=stock, spit_count=side.spit_count)


def _centre_from_proto(pile: spit_pb2.CentrePile) -> CentreView:
    return CentreView(top=maybe_card_from_proto(_top(pile)), size=pile.size)


def _top(pile: spit_pb2.StockPile | spit_pb2.CentrePile) -> spit_pb2.Card | None:
    return pile.top if pile.HasField("top") else None
