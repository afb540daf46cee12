"""What a client needs to bring its Spectacular Bid view forward without a new one: the
step's events decoded (BidEvent -> the engine's events), and ``Told`` <-> a BidView
holding only the decision, the auction and the viewer's own part of the decision.
"""

from __future__ import annotations

from games.bid import (
    AuctionPassed,
    BidAccepted,
    BidMade,
    Dealt,
    Drew,
    Event,
    MatchEnded,
    Passed,
    Played,
    Pressed,
    RoundEnded,
    Told,
)
from games.bid.codec.board import (
    end_from_proto,
    maybe_tile_from_proto,
    maybe_tile_to_proto,
    settlement_from_proto,
    tile_from_proto,
)
from games.bid.codec.commands import bid_command_to_proto, command_from_proto
from games.bid.codec.view import auction_from_proto, auction_to_proto
from games.codec import (
    gate_from_proto,
    gate_to_proto,
    result_from_proto,
    seats_from_proto,
    seats_to_proto,
)
from games.errors import Malformed, Reason
from games.seats import Seat, parse_seat
from photofinish.game.v1 import bid_pb2, game_pb2


def told_to_proto(told: Told) -> game_pb2.View:
    """Return ``told`` as a View envelope whose BidView holds only what ``Told`` holds."""
    return game_pb2.View(
        bid=bid_pb2.BidView(
            version=told.version,
            decide=seats_to_proto(told.decide),
            fresh=told.fresh,
            gate=gate_to_proto(told.gate),
            auction=None if told.auction is None else auction_to_proto(told.auction),
            must_play=maybe_tile_to_proto(told.must_play),
            must_open_with=maybe_tile_to_proto(told.must_open_with),
            legal=[bid_command_to_proto(command) for command in told.legal],
        )
    )


def told_from_proto(message: game_pb2.View) -> Told:
    """Return the ``Told`` a View envelope carries (the inverse of :func:`told_to_proto`).

    Raises:
        Malformed: BAD_ARGUMENT when it holds no Bid view, or a tile, command or gate no
            Bid view has; NO_SUCH_SEAT for an impossible seat.
    """
    if message.WhichOneof("kind") != "bid":
        kind = message.WhichOneof("kind")
        raise Malformed(Reason.BAD_ARGUMENT, f"expected a Spectacular Bid view, not {kind}")
    wire = message.bid
    return Told(
        version=wire.version,
        decide=seats_from_proto(wire.decide),
        fresh=wire.fresh,
        gate=gate_from_proto(wire.gate),
        auction=auction_from_proto(wire.auction) if wire.HasField("auction") else None,
        must_play=maybe_tile_from_proto(wire.must_play if wire.HasField("must_play") else None),
        must_open_with=maybe_tile_from_proto(
            wire.must_open_with if wire.HasField("must_open_with") else None
        ),
        legal=tuple(command_from_proto(game_pb2.Command(bid=command)) for command in wire.legal),
    )


def event_from_proto(message: game_pb2.Event, seat: Seat | None) -> Event:
    """Return the engine event an Event envelope carries, as ``seat`` (None: a spectator)
    heard it: the inverse of ``event_to_proto`` of ``events_for``'s copy.

    Raises:
        Malformed: BAD_ARGUMENT for an event no Bid step makes; NO_SUCH_SEAT for a seat.
    """
    if message.WhichOneof("kind") != "bid":
        kind = message.WhichOneof("kind")
        raise Malformed(Reason.BAD_ARGUMENT, f"expected a Spectacular Bid event, not {kind}")
    event = message.bid
    match event.WhichOneof("kind"):
        case "pressed":
            pressed = event.pressed
            gate = gate_from_proto(pressed.gate)
            if gate is None:
                raise Malformed(Reason.BAD_ARGUMENT, "a press names its gate")
            return Pressed(parse_seat(pressed.seat), gate)
        case "dealt":
            dealt = event.dealt
            own = tuple(tile_from_proto(tile) for tile in dealt.hand)
            hands = ((), ()) if seat is None else ((own, ()) if seat == 0 else ((), own))
            return Dealt(dealt.round_no, dealt.boneyard_count, dealt.hand_size, hands)
        case "played":
            played = event.played
            end = end_from_proto(played.end) if played.HasField("end") else None
            tile = tile_from_proto(played.tile)
            return Played(parse_seat(played.seat), tile, end, played.total, played.points)
        case "drew":
            drew = event.drew
            tiles = tuple(tile_from_proto(tile) for tile in drew.tiles)
            return Drew(parse_seat(drew.seat), drew.count, tiles)
        case "passed":
            return Passed(parse_seat(event.passed.seat), event.passed.forced)
        case "auction_passed":
            return AuctionPassed(parse_seat(event.auction_passed.seat))
        case "bid_made":
            return BidMade(parse_seat(event.bid_made.seat), event.bid_made.amount)
        case "bid_accepted":
            accepted = event.bid_accepted
            seat_, bidder = parse_seat(accepted.seat), parse_seat(accepted.bidder)
            return BidAccepted(seat_, bidder, accepted.amount, accepted.paid)
        case "round_ended":
            return RoundEnded(settlement_from_proto(event.round_ended.settlement))
        case "match_ended":
            ended = event.match_ended
            outcome = result_from_proto(ended.winner, ended.termination)
            if outcome is None:
                raise Malformed(Reason.BAD_ARGUMENT, "an end without a winner")
            return MatchEnded(outcome)
    raise Malformed(Reason.BAD_ARGUMENT, f"not a Spectacular Bid event: {event.WhichOneof('kind')}")
