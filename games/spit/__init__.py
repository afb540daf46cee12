"""Spit (Speed): a real-time two-player card game with no turns, as a pure rules engine.

No I/O, no clock, no global randomness: every shuffle is seeded from the match seed kept
in the state, so a match replays exactly from its seed and ordered command log. The
arbitration applies commands in the order they arrived at the server; the engine knows
nothing of time. Each module's docstring records the rules decisions it implements.
"""

from __future__ import annotations

from games.spit.cards import Card, Rank, Suit, is_adjacent, parse_card, parse_rank
from games.spit.changes import changed
from games.spit.commands import (
    Command,
    Move,
    Pause,
    Play,
    Ready,
    Resign,
    Resume,
    Spit,
    parse_command,
)
from games.spit.deal import new_match
from games.spit.events import Event
from games.spit.model import Options, Phase, Side, State
from games.spit.rules import apply, decision, forfeit, legal_commands, outcome
from games.spit.snapshot import decode_state, encode_state
from games.spit.view import (
    CentreView,
    SideView,
    StockView,
    Told,
    View,
    events_for,
    told,
    tolds,
    view,
    views,
)

__all__ = [
    "Card",
    "CentreView",
    "Command",
    "Event",
    "Move",
    "Options",
    "Pause",
    "Phase",
    "Play",
    "Rank",
    "Ready",
    "Resign",
    "Resume",
    "Side",
    "SideView",
    "Spit",
    "State",
    "StockView",
    "Suit",
    "Told",
    "View",
    "apply",
    "changed",
    "decision",
    "decode_state",
    "encode_state",
    "events_for",
    "forfeit",
    "is_adjacent",
    "legal_commands",
    "new_match",
    "outcome",
    "parse_card",
    "parse_command",
    "parse_rank",
    "told",
    "tolds",
    "view",
    "views",
]
