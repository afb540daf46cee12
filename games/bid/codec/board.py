"""Dominoes on the wire: tiles, open points, the board and settlements (Spectacular Bid)."""

from __future__ import annotations

import functools

from games.bid import Board, Counted, End, Placement, Port, Settlement, Tile
from games.bid.board import parse_end
from games.bid.model import SettlementKind
from games.bid.tiles import MAX_PIPS
from games.bid.view import OpenPoint
from games.codec import pair_from_proto, seat_from_proto, seat_to_proto
from games.errors import Malformed, Reason
from photofinish.game.v1 import bid_pb2

_PORTS: dict[Port, bid_pb2.TilePort.ValueType] = {
    Port.LOW: bid_pb2.TILE_PORT_LOW,
    Port.HIGH: bid_pb2.TILE_PORT_HIGH,
    Port.STRAIGHT_A: bid_pb2.TILE_PORT_STRAIGHT_A,
    Port.STRAIGHT_B: bid_pb2.TILE_PORT_STRAIGHT_B,
    Port.BRANCH_A: bid_pb2.TILE_PORT_BRANCH_A,
    Port.BRANCH_B: bid_pb2.TILE_PORT_BRANCH_B,
}
_PORTS_BY_NUMBER = {int(number): port for port, number in _PORTS.items()}
_KINDS: dict[SettlementKind, bid_pb2.SettlementKind.ValueType] = {
    SettlementKind.WENT_OUT: bid_pb2.SETTLEMENT_KIND_WENT_OUT,
    SettlementKind.BLOCKED: bid_pb2.SETTLEMENT_KIND_BLOCKED,
}


# The conversions to the wire are memoized: a view lists the same tiles, ends and
# placements step after step. The messages they return are shared: callers copy them into
# their own (protobuf copies a message it is given) and never change them.


@functools.cache
def tile_to_proto(tile: Tile) -> bid_pb2.Tile:
    """Return ``tile``, smaller half first, with its text (a shared message)."""
    return bid_pb2.Tile(low=tile.low, high=tile.high, text=str(tile))


def maybe_tile_to_proto(tile: Tile | None) -> bid_pb2.Tile | None:
    """Return ``tile`` as a message, None (the field stays unset) for None."""
    return None if tile is None else tile_to_proto(tile)


def tile_from_proto(tile: bid_pb2.Tile) -> Tile:
    """Return the tile ``tile`` names by its halves, in either order (``text`` is ignored).

    Raises:
        Malformed: BAD_ARGUMENT when a half is outside 0–6.
    """
    low, high = sorted((tile.low, tile.high))
    if low < 0 or high > MAX_PIPS:
        raise Malformed(Reason.BAD_ARGUMENT, f"[{tile.low}|{tile.high}] is not a double-six tile")
    return Tile(low, high)


@functools.lru_cache(maxsize=1024)
def end_to_proto(end: End) -> bid_pb2.End:
    """Return the open point ``end`` with its id text ("[1|4]:high")."""
    return bid_pb2.End(tile=tile_to_proto(end.tile), port=_PORTS[end.port], text=str(end))


def end_from_proto(end: bid_pb2.End) -> End:
    """Return the open point ``end`` names by tile and port (``text`` is ignored).

    Raises:
        Malformed: BAD_ARGUMENT when the tile is missing or impossible, the port unknown,
            or the tile has no such port (a double has no ``low``).
    """
    if not end.HasField("tile"):
        raise Malformed(Reason.BAD_ARGUMENT, "the end names no tile")
    tile = tile_from_proto(end.tile)
    port = _PORTS_BY_NUMBER.get(end.port)
    if port is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"{tile}: port number {end.port} is not a port")
    # The engine's own parser holds the rule of which tile has which port.
    return parse_end(f"{tile}:{port.value}")


def board_to_proto(board: Board) -> bid_pb2.BidBoard:
    """Return the line of play: every placement with where it joined."""
    return bid_pb2.BidBoard(
        placements=[placement_to_proto(p) for p in board.placements],
        spinner=maybe_tile_to_proto(board.spinner),
        branches_open=board.branches_open,
    )


@functools.lru_cache(maxsize=8192)
def placement_to_proto(placement: Placement) -> bid_pb2.Placement:
    """Return one placement: its tile, and the end it joined by which port."""
    return bid_pb2.Placement(
        tile=tile_to_proto(placement.tile),
        on=None if placement.on is None else end_to_proto(placement.on),
        via=bid_pb2.TILE_PORT_UNSPECIFIED if placement.via is None else _PORTS[placement.via],
    )


@functools.lru_cache(maxsize=2048)
def open_point_to_proto(point: OpenPoint) -> bid_pb2.OpenPoint:
    """Return an open point and the value a tile must show to join it."""
    return bid_pb2.OpenPoint(end=end_to_proto(point.end), value=point.value)


@functools.lru_cache(maxsize=2048)
def counted_to_proto(counted: Counted) -> bid_pb2.Counted:
    """Return one contribution to the end sum."""
    return bid_pb2.Counted(tile=tile_to_proto(counted.tile), points=counted.points)


def settlement_to_proto(settlement: Settlement) -> bid_pb2.BidSettlement:
    """Return a round's settlement: pip totals at a block, never the tiles."""
    return bid_pb2.BidSettlement(
        round_no=settlement.round_no,
        kind=_KINDS[settlement.kind],
        seat=seat_to_proto(settlement.seat),
        pips=[] if settlement.pips is None else list(settlement.pips),
        transfer=settlement.transfer,
    )


# --- From the wire: what a client (the bot pool) rebuilds from a BidView. ---

_KINDS_BY_NUMBER = {int(number): kind for kind, number in _KINDS.items()}


def maybe_tile_from_proto(tile: bid_pb2.Tile | None) -> Tile | None:
    """Return the tile ``tile`` names, None for None (an unset field).

    Raises:
        Malformed: BAD_ARGUMENT when a half is outside 0–6.
    """
    return None if tile is None else tile_from_proto(tile)


def port_from_proto(value: int) -> Port | None:
    """Return the port ``value`` numbers, None for TILE_PORT_UNSPECIFIED.

    Raises:
        Malformed: BAD_ARGUMENT for an unknown number.
    """
    if value == bid_pb2.TILE_PORT_UNSPECIFIED:
        return None
    port = _PORTS_BY_NUMBER.get(value)
    if port is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"port number {value} is not a port")
    return port


def board_from_proto(
    board: bid_pb2.BidBoard, open_points: tuple[OpenPoint, ...], end_sum: int
) -> Board:
    """Return the engine's board: the line of play from ``board``, the open points (in
    board order) and the end sum from the view that carries it.

    Raises:
        Malformed: BAD_ARGUMENT for a tile or port that cannot exist.
    """
    return Board(
        placements=tuple(_placement_from_proto(p) for p in board.placements),
        ends=tuple(point.end for point in open_points),
        spinner=maybe_tile_from_proto(board.spinner if board.HasField("spinner") else None),
        branches_open=board.branches_open,
        total=end_sum,
    )


def _placement_from_proto(placement: bid_pb2.Placement) -> Placement:
    if not placement.HasField("tile"):
        raise Malformed(Reason.BAD_ARGUMENT, "a placement names no tile")
    return Placement(
        tile=tile_from_proto(placement.tile),
        on=end_from_proto(placement.on) if placement.HasField("on") else None,
        via=port_from_proto(placement.via),
    )


def open_point_from_proto(point: bid_pb2.OpenPoint) -> OpenPoint:
    """Return an open point and the value a tile must show to join it.

    Raises:
        Malformed: BAD_ARGUMENT for an end that cannot exist.
    """
    return OpenPoint(end=end_from_proto(point.end), value=point.value)


def counted_from_proto(counted: bid_pb2.Counted) -> Counted:
    """Return one contribution to the end sum.

    Raises:
        Malformed: BAD_ARGUMENT for a tile that cannot exist.
    """
    return Counted(tile=tile_from_proto(counted.tile), points=counted.points)


def settlement_from_proto(settlement: bid_pb2.BidSettlement) -> Settlement:
    """Return a round's settlement (``pips`` None unless the round was blocked).

    Raises:
        Malformed: BAD_ARGUMENT for an unknown kind or pips not one per seat;
            NO_SUCH_SEAT for an impossible seat.
    """
    kind = _KINDS_BY_NUMBER.get(settlement.kind)
    if kind is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"settlement kind {settlement.kind} is not a kind")
    return Settlement(
        round_no=settlement.round_no,
        kind=kind,
        seat=seat_from_proto(settlement.seat),
        pips=pair_from_proto(settlement.pips, "pips") if settlement.pips else None,
        transfer=settlement.transfer,
    )
