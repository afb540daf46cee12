"""What the arbitration needs to know after every step: who decides, and how the clock runs."""

from __future__ import annotations

from typing import Generic, TypeVar

import msgspec

from games.identity_enum import IdentityEnum
from games.seats import Seat


class Gate(IdentityEnum):
    """A point where play waits for a press, not for a move; match clocks are stopped."""

    START = "start"  # after the deal of the first round
    CONTINUE = "continue"  # after a round's settlement (the next round is already dealt)
    SPIT = "spit"  # Spit: nobody can go on; a spit turns new centre cards
    PAUSED = "paused"  # Spit vs the computer: the ⏸ button


class Decision(msgspec.Struct, frozen=True):
    """Who may act now, and whether that is a genuinely new decision.

    ``seats`` is empty once the match is over. At a gate, ``seats`` are those who still
    have to press. ``fresh`` is true when a new decision begins (a new turn, an opening
    turn, an auction step), so a fresh grace period starts; it is false when the same
    turn continues (after a draw) or when nothing is clocked.
    """

    seats: frozenset[Seat]
    fresh: bool
    gate: Gate | None = None


# How long a due action waits before the server takes it for the players (the Spit rules
# page, "Decisions left open by the seed": the spit when nobody can play comes "after a
# short visible pause"). The rules service may be given another (PF_SPIT_PAUSE_MS).
DEFAULT_LIFT_PAUSE_MS = 1000


class Termination(IdentityEnum):
    """How a match ended. Values are stored and mirrored in proto: never renumber."""

    CHIPS = "chips"  # Bid: a balance reached 0
    CARDS = "cards"  # Spit: a player had no cards left at the end of a round
    TIME = "time"  # the arbitration flagged a player
    RESIGN = "resign"
    ABANDONED = "abandoned"  # the opponent went away and the present player claimed


class Outcome(msgspec.Struct, frozen=True):
    """The end of a match: every finished match has exactly one winner."""

    winner: Seat
    termination: Termination


S = TypeVar("S")
E = TypeVar("E")


class Step(msgspec.Struct, Generic[S, E], frozen=True):
    """What one applied command produced: the new state, what happened, who decides next.

    ``events`` may hold secrets (a drawn tile): pass them through the engine's
    ``events_for`` before they leave the server.
    """

    state: S
    events: tuple[E, ...]
    decision: Decision
