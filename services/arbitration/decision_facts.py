"""What the arbitration reads of a rules decision: who acts, if it is new, the timer it asks.

The arbitration names no game: these are the game-neutral facts every rules reply carries
(``photofinish.game.v1.Decision``), as the arbitration's own values.
"""

from __future__ import annotations

import enum
import functools
from typing import NewType

import msgspec

from photofinish.game.v1 import game_pb2

Seat = NewType("Seat", int)
NO_SEAT = -1  # on the wire: no seat (nobody's clock runs) or the spectators


class Lift(enum.Enum):
    """The timer a decision asks for, for when nobody lifts it (the server then nudges)."""

    NONE = game_pb2.LIFT_NONE
    AFTER_GATE_TIMEOUT = game_pb2.LIFT_AFTER_GATE_TIMEOUT  # players owe presses
    AFTER_PAUSE = game_pb2.LIFT_AFTER_PAUSE  # an action is due after the game's pause


class Decision(msgspec.Struct, frozen=True):
    """Who may act now (empty once over), and whether that is a genuinely new decision.

    ``gated`` means play waits for presses, not moves: no match clock runs.
    """

    seats: frozenset[Seat]
    fresh: bool
    gated: bool = False
    lift: Lift = Lift.NONE
    lift_after_ms: int = 0


def decision_from_proto(decision: game_pb2.Decision) -> Decision:
    """Return the decision a rules reply carries (an unknown lift asks for no timer)."""
    return _decision(
        tuple(decision.seats),
        decision.fresh,
        decision.gate,
        decision.lift,
        decision.lift_after_ms,
    )


# A match reaches the same few decisions again and again (each seat's turn, fresh or not,
# a gate): each is made once from its plain values, not rebuilt every step.
@functools.lru_cache(maxsize=1024)
def _decision(
    seats: tuple[int, ...], fresh: bool, gate: int, lift_number: int, lift_after_ms: int
) -> Decision:
    try:
        lift = Lift(lift_number)
    except ValueError:
        lift = Lift.NONE
    return Decision(
        frozenset(Seat(s) for s in seats),
        fresh,
        gate != game_pb2.GATE_NONE,
        lift,
        lift_after_ms,
    )


def seat_to_proto(seat: Seat | None) -> int:
    """Return ``seat`` as stored on the wire: -1 for none."""
    return NO_SEAT if seat is None else int(seat)


def seat_from_proto(value: int) -> Seat | None:
    """Return the seat ``value`` names, None for -1."""
    return None if value == NO_SEAT else Seat(value)
