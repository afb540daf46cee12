"""The arbitration's nudge, as the engines see it: lift a gate nobody lifted in time.

At Gate.START / Gate.CONTINUE the nudge presses Ready for every seat that has not, in
seat order; at Gate.SPIT it makes the due spit for the first seat still deciding (the
lowest). Anywhere else there is nothing to nudge: a paused match waits for its players,
and play under way or a finished match has no gate. The rules service applies it for the
arbitration (services/rules/nudge.py); a replay of a match's log applies it again.
"""

from __future__ import annotations

from typing import Any

from games.contract import Engine
from games.decision import Gate, Step

_READY_GATES = (Gate.START, Gate.CONTINUE)


def nudged(engine: Engine, state: Any) -> Step[Any, Any] | None:
    """Return the step that lifts the gate ``state`` waits at, all its events in order;
    None when no start, continue or spit gate waits for anyone."""
    now = engine.decision(state)
    seats = sorted(now.seats)
    if now.gate in _READY_GATES and seats:
        ready = engine.parse_command("ready")
        step = engine.apply(state, seats[0], ready)
        events = list(step.events)
        for seat in seats[1:]:
            step = engine.apply(step.state, seat, ready)
            events += step.events
        return Step(step.state, tuple(events), step.decision)
    if now.gate is Gate.SPIT and seats:
        return engine.apply(state, seats[0], engine.parse_command("spit"))
    return None
