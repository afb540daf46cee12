"""Spectacular Bid commands <-> BidCommand messages.

A decoded command names only tiles and ends that can exist (the double-six set, a port the
tile has); whether it is *legal* now is the engine's business.
"""

from __future__ import annotations

import functools

from games.bid import Accept, Bid, Command, Draw, PassBid, Play, Ready, Resign
from games.bid.codec.board import end_from_proto, end_to_proto, tile_from_proto, tile_to_proto
from games.errors import Malformed, Reason
from photofinish.game.v1 import bid_pb2, game_pb2

# Commands without arguments, by their field name in BidCommand.kind.
_BARE: dict[str, Command] = {
    "ready": Ready(),
    "draw": Draw(),
    "pass_bid": PassBid(),
    "accept": Accept(),
    "resign": Resign(),
}


def command_from_proto(command: game_pb2.Command) -> Command:
    """Return the engine command ``command`` carries.

    Raises:
        Malformed: UNKNOWN_COMMAND when it holds no Bid command (another game's, or an
            empty or unknown kind); BAD_ARGUMENT for a tile, end or amount that cannot exist.
    """
    outer = command.WhichOneof("kind")
    if outer != "bid":
        raise Malformed(Reason.UNKNOWN_COMMAND, f"expected a Spectacular Bid command, not {outer}")
    inner = command.bid
    kind = inner.WhichOneof("kind")
    if kind == "play":
        return _play_from_proto(inner.play)
    if kind == "bid":
        if inner.bid.amount < 0:
            raise Malformed(Reason.BAD_ARGUMENT, f"bid {inner.bid.amount}: a bid is not negative")
        return Bid(inner.bid.amount)
    bare = _BARE.get(kind or "")
    if bare is None:
        raise Malformed(Reason.UNKNOWN_COMMAND, "the Spectacular Bid command is empty or unknown")
    return bare


def _play_from_proto(play: bid_pb2.BidPlay) -> Play:
    if not play.HasField("tile"):
        raise Malformed(Reason.BAD_ARGUMENT, "play names no tile")
    tile = tile_from_proto(play.tile)
    return Play(tile, end_from_proto(play.end) if play.HasField("end") else None)


def command_to_proto(command: Command) -> game_pb2.Command:
    """Return ``command`` in its envelope.

    Raises:
        Malformed: UNKNOWN_COMMAND when ``command`` is not a Bid command.
    """
    return game_pb2.Command(bid=bid_command_to_proto(command))


@functools.lru_cache(maxsize=8192)
def bid_command_to_proto(command: Command) -> bid_pb2.BidCommand:
    """Return ``command`` as a BidCommand (views list legal commands without the envelope)."""
    match command:
        case Ready():
            return bid_pb2.BidCommand(ready=bid_pb2.BidReady())
        case Play(tile=tile, end=end):
            at = None if end is None else end_to_proto(end)
            return bid_pb2.BidCommand(play=bid_pb2.BidPlay(tile=tile_to_proto(tile), end=at))
        case Draw():
            return bid_pb2.BidCommand(draw=bid_pb2.BidDraw())
        case PassBid():
            return bid_pb2.BidCommand(pass_bid=bid_pb2.BidPass())
        case Bid(amount=amount):
            return bid_pb2.BidCommand(bid=bid_pb2.BidOffer(amount=amount))
        case Accept():
            return bid_pb2.BidCommand(accept=bid_pb2.BidAccept())
        case Resign():
            return bid_pb2.BidCommand(resign=bid_pb2.BidResign())
    raise Malformed(Reason.UNKNOWN_COMMAND, f"{command!r} is not a Spectacular Bid command")
