"""Proto <-> the arbitration's values, in one place."""

from __future__ import annotations

from games.codec import gate_from_proto
from games.decision import Decision
from games.seats import Seat
from photofinish.game.v1 import game_pb2


def decision_from_proto(decision: game_pb2.Decision) -> Decision:
    """Return the engine-side decision a rules reply carries."""
    return Decision(
        frozenset(Seat(s) for s in decision.seats), decision.fresh, gate_from_proto(decision.gate)
    )
