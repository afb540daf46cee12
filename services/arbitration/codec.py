"""Proto <-> the arbitration's values, in one place."""

from __future__ import annotations

from photofinish.game.v1 import game_pb2
from services.rules.engine.decision import Decision, Gate
from services.rules.engine.seats import Seat

_GATES = {
    game_pb2.GATE_START: Gate.START,
    game_pb2.GATE_CONTINUE: Gate.CONTINUE,
    game_pb2.GATE_SPIT: Gate.SPIT,
    game_pb2.GATE_PAUSED: Gate.PAUSED,
}


def decision_from_proto(decision: game_pb2.Decision) -> Decision:
    """Return the engine-side decision a rules reply carries."""
    return Decision(
        frozenset(Seat(s) for s in decision.seats), decision.fresh, _GATES.get(decision.gate)
    )
