"""Spectacular Bid: a two-player Fives dominoes duel with an opening auction and chips.

A pure rules engine for the rules page ``spectacular-bid.md``: no I/O, no clock, no
global randomness; every round's shuffle derives from the seed carried in the state.
The project's decisions where the rules are silent are documented in the modules that
implement them: ``rounds`` (deal, rank opening, settlement, gates), ``turns`` (draw as
one request, forced pass), ``auction`` (who may pass, affordability), ``rules``
(gates, resign, refusal order), ``board`` (ports and open-point ids), ``commands``
(text syntax) and ``view`` (secrets).
"""

from __future__ import annotations

from games.bid.board import Board, Counted, End, Placement, Port
from games.bid.changes import changed
from games.bid.commands import (
    Accept,
    Bid,
    Command,
    Draw,
    PassBid,
    Play,
    Ready,
    Resign,
    parse_command,
)
from games.bid.events import (
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
from games.bid.model import Options, Phase, Settlement, SettlementKind, State
from games.bid.rules import (
    apply,
    decision,
    forfeit,
    legal_commands,
    new_match,
    outcome,
)
from games.bid.snapshot import decode_state, encode_state
from games.bid.tiles import FULL_SET, Tile, parse_tile
from games.bid.view import (
    AuctionView,
    OpenPoint,
    Told,
    View,
    events_for,
    told,
    tolds,
    view,
    views,
)

__all__ = [
    "FULL_SET",
    "Accept",
    "AuctionPassed",
    "AuctionView",
    "Bid",
    "BidAccepted",
    "BidMade",
    "Board",
    "Command",
    "Counted",
    "Dealt",
    "Draw",
    "Drew",
    "End",
    "Event",
    "MatchEnded",
    "OpenPoint",
    "Options",
    "PassBid",
    "Passed",
    "Phase",
    "Placement",
    "Play",
    "Played",
    "Port",
    "Pressed",
    "Ready",
    "Resign",
    "RoundEnded",
    "Settlement",
    "SettlementKind",
    "State",
    "Tile",
    "Told",
    "View",
    "apply",
    "changed",
    "decision",
    "decode_state",
    "encode_state",
    "events_for",
    "forfeit",
    "legal_commands",
    "new_match",
    "outcome",
    "parse_command",
    "parse_tile",
    "told",
    "tolds",
    "view",
    "views",
]
