"""One recipient's Spit view <-> a SpitView message.

Only face-up cards appear: each stock pile's top and each centre pile's top; everything
face down is a count, for its owner too (the engine's view holds nothing more). Clients
(the bot pool) decode a SpitView back into the engine's view: the exact inverse.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import TypeVar

from msgspec.structs import fields

from games.codec import (
    gate_from_proto,
    gate_to_proto,
    result_from_proto,
    result_to_proto,
    seat_from_proto,
    seat_to_proto,
    seats_from_proto,
    seats_to_proto,
)
from games.errors import Malformed, Reason
from games.protowire import field_numbers, int_field, message_field, packed_field
from games.spit import Card, CentreView, SideView, StockView, View
from games.spit.cards import full_deck
from games.spit.codec.cards import card_to_proto, maybe_card_from_proto, maybe_card_to_proto
from photofinish.game.v1 import game_pb2, spit_pb2

T = TypeVar("T")


_SPIT_FIELD = game_pb2.View.DESCRIPTOR.fields_by_name["spit"].number
# What a view shows but its seat: one step's views share these objects (``views``), so
# comparing them costs an identity check each.
_shown = operator.attrgetter(*(field.name for field in fields(View) if field.name != "seat"))


def views_to_bytes(views: Sequence[View]) -> list[bytes]:
    """Return a step's views, each an encoded View (written by hand: ``games.protowire``).

    Everything a Spit view shows is public (face-down cards are counts, for their owner
    too), so a step's views differ by whose they are: the rest is encoded once, when it
    is equal, and each recipient's seat joined to it.
    """
    first = views[0]
    if any(_shown(view) != _shown(first) for view in views[1:]):
        return [_encoded(view, _body(view)) for view in views]
    shared = _body(first)
    return [_encoded(view, shared) for view in views]


def _encoded(view: View, body: bytes) -> bytes:
    """Return the View envelope of ``view``, its fields but the seat being ``body``."""
    return message_field(_SPIT_FIELD, int_field(_VIEW["seat"], seat_to_proto(view.seat)) + body)


_VIEW = field_numbers(spit_pb2.SpitView)
_SIDE = field_numbers(spit_pb2.SpitSide)
_STOCK = field_numbers(spit_pb2.StockPile)
_CENTRE = field_numbers(spit_pb2.CentrePile)
assert _STOCK["top"] == _CENTRE["top"], "both kinds of pile number their top card alike"
# Each face-up card as the top of a pile, by rank and suit (hashed in C, unlike a Card).
_TOPS = {
    (card.rank, card.suit): message_field(_STOCK["top"], card_to_proto(card).SerializeToString())
    for card in full_deck()
}


def _body(view: View) -> bytes:
    """Return every field of ``view`` but its seat, encoded as SpitView's."""
    winner, termination = result_to_proto(view.outcome)
    return b"".join(
        (
            int_field(_VIEW["version"], view.version),
            int_field(_VIEW["round_no"], view.round_no),
            int_field(_VIEW["pausable"], view.pausable),
            *[_side_field(side) for side in view.sides],
            *[_pile_field(_VIEW["centre"], _CENTRE["size"], p.top, p.size) for p in view.centre],
            int_field(_VIEW["gate"], gate_to_proto(view.gate)),
            int_field(_VIEW["paused"], view.paused),
            packed_field(_VIEW["must_press"], seats_to_proto(view.must_press)),
            int_field(_VIEW["spits"], view.spits),
            int_field(_VIEW["winner"], winner),
            int_field(_VIEW["termination"], termination),
        )
    )


def _side_field(side: SideView) -> bytes:
    number, count_number = _SIDE["stock"], _STOCK["hidden"]
    stock = b"".join([_pile_field(number, count_number, p.top, p.hidden) for p in side.stock])
    return message_field(_VIEW["sides"], stock + int_field(_SIDE["spit_count"], side.spit_count))


# A pile as a field of the message it is in, by (field, rank, suit, count): a few hundred
# piles recur in every match, so each is encoded once.
_piles: dict[tuple[int, object, object, int], bytes] = {}


def _pile_field(number: int, count_number: int, top: Card | None, count: int) -> bytes:
    """Return a stock or centre pile (its top card, if any, and its count) as field
    ``number`` of the message it is in."""
    key = (number, None, None, count) if top is None else (number, top.rank, top.suit, count)
    field = _piles.get(key)
    if field is None:
        shown = b"" if top is None else _TOPS[top.rank, top.suit]
        field = _piles[key] = message_field(number, shown + int_field(count_number, count))
    return field


def view_to_proto(view: View) -> game_pb2.View:
    """Return ``view`` in the View envelope."""
    return game_pb2.View(spit=_spit_view(view))


def _spit_view(view: View) -> spit_pb2.SpitView:
    winner, termination = result_to_proto(view.outcome)
    return spit_pb2.SpitView(
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


@functools.lru_cache(maxsize=4096)
def _stock_pile(pile: StockView) -> spit_pb2.StockPile:
    """Return one stock pile: its face-up top (if any) and the face-down count (a shared
    message, as ``card_to_proto``'s)."""
    return spit_pb2.StockPile(top=maybe_card_to_proto(pile.top), hidden=pile.hidden)


def _side(side: SideView) -> spit_pb2.SpitSide:
    return spit_pb2.SpitSide(
        stock=[_stock_pile(pile) for pile in side.stock], spit_count=side.spit_count
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
        StockView(top=maybe_card_from_proto(pile_top(pile)), hidden=pile.hidden)
        for pile in side.stock
    )
    return SideView(stock=stock, spit_count=side.spit_count)


def _centre_from_proto(pile: spit_pb2.CentrePile) -> CentreView:
    return CentreView(top=maybe_card_from_proto(pile_top(pile)), size=pile.size)


def pile_top(pile: spit_pb2.StockPile | spit_pb2.CentrePile) -> spit_pb2.Card | None:
    """Return a pile's top card as the wire has it, None when unset (empty)."""
    return pile.top if pile.HasField("top") else None
