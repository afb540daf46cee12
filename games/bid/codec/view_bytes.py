"""A step's Spectacular Bid views encoded by hand (``games.protowire``): each a View.

The same messages as ``view.view_to_proto`` builds (the codec tests decode both and
compare), without a protobuf message made or copied per tile, end, placement and command:
those recur step after step, so each is encoded once and its bytes looked up.

What everyone at the table sees (the board above all) is encoded once when the views show
the same of it, and joined to each view's own fields: its seat, hand, drawn tile and legal
commands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from google.protobuf.message import Message

from games.bid import (
    AuctionView,
    Bid,
    Command,
    Counted,
    Placement,
    Play,
    Settlement,
    Tile,
    Told,
    View,
)
from games.bid.codec.board import (
    counted_to_proto,
    open_point_to_proto,
    placement_to_proto,
    settlement_to_proto,
    tile_to_proto,
)
from games.bid.codec.commands import bid_command_to_proto
from games.bid.tiles import MAX_PIPS
from games.bid.view import OpenPoint
from games.codec import gate_to_proto, result_to_proto, seat_to_proto, seats_to_proto
from games.protowire import field_numbers, int_field, message_field, packed_field
from photofinish.game.v1 import bid_pb2, game_pb2

_BID = field_numbers(game_pb2.View)["bid"]
_VIEW = field_numbers(bid_pb2.BidView)
_BOARD = field_numbers(bid_pb2.BidBoard)
_AUCTION = field_numbers(bid_pb2.BidAuction)


def views_to_bytes(views: Sequence[View]) -> list[bytes]:
    """Return a step's views, each an encoded View."""
    shared = _public_key(views[0])
    if any(_public_key(view) != shared for view in views[1:]):
        return [message_field(_BID, _public(view) + _own(view)) for view in views]
    public = _public(views[0])
    return [message_field(_BID, public + _own(view)) for view in views]


def told_to_bytes(told: Told) -> bytes:
    """Return ``told`` as an encoded View holding only what it tells (``told_to_proto``'s
    message, encoded from the same recurring parts as a view)."""
    must_play, must_open_with = told.must_play, told.must_open_with
    return message_field(
        _BID,
        b"".join(
            (
                int_field(_VIEW["version"], told.version),
                b"" if told.auction is None else _auction_field(told.auction),
                packed_field(_VIEW["decide"], seats_to_proto(told.decide)),
                int_field(_VIEW["fresh"], told.fresh),
                int_field(_VIEW["gate"], gate_to_proto(told.gate)),
                b"" if must_play is None else _MUST_PLAY[must_play.low, must_play.high],
                b""
                if must_open_with is None
                else _MUST_OPEN_WITH[must_open_with.low, must_open_with.high],
                *[_legal_field(command) for command in told.legal],
            )
        ),
    )


def _public_key(view: View) -> tuple[object, ...]:
    """Return what of ``view`` everyone at the table sees (shared objects compare at once)."""
    return (
        view.version,
        view.round_no,
        view.hand_counts,
        view.boneyard_count,
        view.board,
        view.open_points,
        view.counted,
        view.end_sum,
        view.balances,
        view.jockey,
        view.auction,
        view.decide,
        view.fresh,
        view.gate,
        view.last_settlement,
        view.outcome,
    )


def _public(view: View) -> bytes:
    """Return the fields of ``view`` everyone sees."""
    winner, termination = result_to_proto(view.outcome)
    board = view.board
    placements = [_placement_field(placement) for placement in board.placements]
    if board.spinner is not None:
        placements.append(_SPINNER[board.spinner.low, board.spinner.high])
    placements.append(int_field(_BOARD["branches_open"], board.branches_open))
    settlement = view.last_settlement
    return b"".join(
        (
            int_field(_VIEW["version"], view.version),
            int_field(_VIEW["round_no"], view.round_no),
            packed_field(_VIEW["hand_counts"], view.hand_counts),
            int_field(_VIEW["boneyard_count"], view.boneyard_count),
            message_field(_VIEW["board"], b"".join(placements)),
            *[_open_point_field(point) for point in view.open_points],
            *[_counted_field(counted) for counted in view.counted],
            int_field(_VIEW["end_sum"], view.end_sum),
            packed_field(_VIEW["balances"], view.balances),
            int_field(_VIEW["jockey"], seat_to_proto(view.jockey)),
            b"" if view.auction is None else _auction_field(view.auction),
            packed_field(_VIEW["decide"], seats_to_proto(view.decide)),
            int_field(_VIEW["fresh"], view.fresh),
            int_field(_VIEW["gate"], gate_to_proto(view.gate)),
            b"" if settlement is None else _settlement_field(settlement),
            int_field(_VIEW["winner"], winner),
            int_field(_VIEW["termination"], termination),
        )
    )


def _own(view: View) -> bytes:
    """Return the fields of ``view`` that are its seat's alone."""
    must_play, must_open_with = view.must_play, view.must_open_with
    return b"".join(
        (
            int_field(_VIEW["seat"], seat_to_proto(view.seat)),
            *[_HAND[tile.low, tile.high] for tile in view.hand],
            b"" if must_play is None else _MUST_PLAY[must_play.low, must_play.high],
            b""
            if must_open_with is None
            else _MUST_OPEN_WITH[must_open_with.low, must_open_with.high],
            *[_legal_field(command) for command in view.legal],
        )
    )


# Each recurring part as the field of the message it is in, encoded once and found by
# its numbers: a match has 28 tiles and a few hundred ends, placements, points and
# commands, and a key of plain values hashes in C where an engine value hashes in Python.
_Key = tuple[object, ...]
T = TypeVar("T")


def _tile_fields(number: int) -> dict[tuple[int, int], bytes]:
    """Return every tile as field ``number``, by its halves."""
    return {
        (low, high): message_field(number, tile_to_proto(Tile(low, high)).SerializeToString())
        for low in range(MAX_PIPS + 1)
        for high in range(low, MAX_PIPS + 1)
    }


class _Fields(Generic[T]):
    """Values of one kind, each encoded once as field ``number`` of the message it is in."""

    def __init__(self, number: int, to_proto: Callable[[T], Message]) -> None:
        self._number = number
        self._to_proto = to_proto
        self._fields: dict[_Key, bytes] = {}

    def of(self, key: _Key, value: T) -> bytes:
        """Return ``value``, known by ``key`` (its plain values), as the field."""
        field = self._fields.get(key)
        if field is None:
            encoded = self._to_proto(value).SerializeToString()
            field = self._fields[key] = message_field(self._number, encoded)
        return field


_HAND = _tile_fields(_VIEW["hand"])
_MUST_PLAY = _tile_fields(_VIEW["must_play"])
_MUST_OPEN_WITH = _tile_fields(_VIEW["must_open_with"])
_SPINNER = _tile_fields(_BOARD["spinner"])
_PLACEMENTS = _Fields(_BOARD["placements"], placement_to_proto)
_OPEN_POINTS = _Fields(_VIEW["open_points"], open_point_to_proto)
_COUNTED = _Fields(_VIEW["counted"], counted_to_proto)
_LEGAL = _Fields(_VIEW["legal"], bid_command_to_proto)
_SETTLEMENTS = _Fields(_VIEW["last_settlement"], settlement_to_proto)


def _placement_field(placement: Placement) -> bytes:
    tile, on = placement.tile, placement.on
    if on is None:
        return _PLACEMENTS.of((tile.low, tile.high), placement)
    key = (tile.low, tile.high, on.tile.low, on.tile.high, on.port, placement.via)
    return _PLACEMENTS.of(key, placement)


def _open_point_field(point: OpenPoint) -> bytes:
    end = point.end
    return _OPEN_POINTS.of((end.tile.low, end.tile.high, end.port, point.value), point)


def _counted_field(counted: Counted) -> bytes:
    return _COUNTED.of((counted.tile.low, counted.tile.high, counted.points), counted)


def _legal_field(command: Command) -> bytes:
    key: _Key = (type(command),)
    if isinstance(command, Play):
        tile, end = command.tile, command.end
        key = (Play, tile.low, tile.high)
        if end is not None:
            key = (Play, tile.low, tile.high, end.tile.low, end.tile.high, end.port)
    elif isinstance(command, Bid):
        key = (Bid, command.amount)
    return _LEGAL.of(key, command)


def _settlement_field(settlement: Settlement) -> bytes:
    s = settlement
    return _SETTLEMENTS.of((s.round_no, s.kind, s.seat, s.pips, s.transfer), settlement)


def _auction_field(auction: AuctionView) -> bytes:
    body = b"".join(
        (
            int_field(_AUCTION["bid"], auction.bid),
            int_field(_AUCTION["bidder"], seat_to_proto(auction.bidder)),
            int_field(_AUCTION["cost"], auction.cost),
            int_field(_AUCTION["min_bid"], auction.min_bid),
        )
    )
    return message_field(_VIEW["auction"], body)
