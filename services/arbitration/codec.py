"""Proto <-> the arbitration's values, in one place."""

from __future__ import annotations

from photofinish.game.v1 import game_pb2
from services.rules.codec.common import gate_from_proto
from services.rules.engine.decision import Decision
from services.rules.engine.seats import Seat


def decision_from_proto(decision: game_pb2.Decision) -> Decision:
    """Return the engine-side decision a rules reply carries."""
    return Decision(
        frozenset(Seat(s) for s in decision.seats), decision.fresh, gate_from_proto(decision.gate)
    )
