"""The arbitration's nudge (games/nudge.py), refused when there is nothing to lift."""

from __future__ import annotations

from typing import Any

from games.contract import Engine
from games.decision import Step
from games.nudge import nudged
from services.rules import errors


def nudge(engine: Engine, state: Any) -> Step[Any, Any]:
    """Return the step that lifts the gate ``state`` waits at, all its events in order.

    Raises:
        Rejection: FAILED_PRECONDITION ``nothing_to_nudge`` when no start, continue or
            spit gate waits for anyone.
        Malformed / Refused: never for a state the engine made (its own commands).
    """
    step = nudged(engine, state)
    if step is None:
        now = engine.decision(state)
        gate = "no gate" if now.gate is None else f"gate {now.gate.value}"
        seats = sorted(now.seats)
        raise errors.nothing_to_nudge(f"{gate} with seats {seats} has nothing a nudge lifts")
    return step
