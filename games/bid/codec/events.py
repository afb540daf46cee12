"""Spectacular Bid events -> BidEvent messages.

Events are converted as given: pass them through the engine's ``events_for`` first, which
empties every hand of a Dealt event but the recipient's own, and the tiles of every Drew
event but the drawer's.
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
)
from games.bid.codec.board import end_to_proto, settlement_to_proto, tile_to_proto
from games.codec import gate_to_proto, result_to_proto
from photofinish.game.v1 import bid_pb2, game_pb2


def event_to_proto(event: Event) -> game_pb2.Event:
    """Return ``event`` in the Event envelope."""
    return game_pb2.Event(bid=_bid_event(event))


def _bid_event(event: Event) -> bid_pb2.BidEvent:
    match event:
        case Pressed(seat=seat, gate=gate):
            return bid_pb2.BidEvent(pressed=bid_pb2.BidPressed(seat=seat, gate=gate_to_proto(gate)))
        case Dealt(round_no=round_no, boneyard_count=count, hand_size=size, hands=hands):
            if all(hands):  # never both: only one seat's copy may name a hand
                raise ValueError("a Dealt event with both hands: pass it through events_for")
            hand = [tile_to_proto(t) for held in hands for t in held]
            dealt = bid_pb2.BidDealt(
                round_no=round_no, boneyard_count=count, hand_size=size, hand=hand
            )
            return bid_pb2.BidEvent(dealt=dealt)
        case Played(seat=seat, tile=tile, end=end, total=total, points=points):
            played = bid_pb2.BidPlayed(
                seat=seat,
                tile=tile_to_proto(tile),
                end=None if end is None else end_to_proto(end),
                total=total,
                points=points,
            )
            return bid_pb2.BidEvent(played=played)
        case Drew(seat=seat, count=count, tiles=tiles):
            drew = bid_pb2.BidDrew(seat=seat, count=count, tiles=[tile_to_proto(t) for t in tiles])
            return bid_pb2.BidEvent(drew=drew)
        case Passed(seat=seat, forced=forced):
            return bid_pb2.BidEvent(passed=bid_pb2.BidPassed(seat=seat, forced=forced))
        case AuctionPassed(seat=seat):
            return bid_pb2.BidEvent(auction_passed=bid_pb2.BidAuctionPassed(seat=seat))
        case BidMade(seat=seat, amount=amount):
            return bid_pb2.BidEvent(bid_made=bid_pb2.BidMade(seat=seat, amount=amount))
        case BidAccepted(seat=seat, bidder=bidder, amount=amount, paid=paid):
            accepted = bid_pb2.BidAccepted(seat=seat, bidder=bidder, amount=amount, paid=paid)
            return bid_pb2.BidEvent(bid_accepted=accepted)
        case RoundEnded(settlement=settlement):
            ended = bid_pb2.BidRoundEnded(settlement=settlement_to_proto(settlement))
            return bid_pb2.BidEvent(round_ended=ended)
        case MatchEnded(outcome=outcome):
            winner, termination = result_to_proto(outcome)
            match_ended = bid_pb2.BidMatchEnded(winner=winner, termination=termination)
            return bid_pb2.BidEvent(match_ended=match_ended)
    raise TypeError(f"{event!r} is not a Spectacular Bid event")
