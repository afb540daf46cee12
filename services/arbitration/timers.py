"""The server's timers: a deadline flag, and the nudge a decision asks for when nobody acts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from services.arbitration.decision_facts import Lift
from services.arbitration.match import Flag, Match, Nudge


class Timers:
    """Keeps exactly one pending timer per live match, reset after every change.

    A decision's lift comes from the rules: after the gate timeout (players owe presses
    and may have left) or after the game's own pause (an action that is due).
    """

    def __init__(self, gate_timeout_s: float, now: Callable[[], int]) -> None:
        self._gate_timeout_s = gate_timeout_s
        self._now = now  # the arbitration's monotonic clock, the event loop's own

    def schedule(self, match: Match) -> None:
        """Replace the match's timer by the one its current state calls for, if any."""
        if match.timer is not None:
            match.timer.cancel()
            match.timer = None
        if match.is_over():
            return
        loop = asyncio.get_running_loop()
        deadline = match.timing.deadline_ns()
        if deadline is not None:
            # loop.time() is time.monotonic(), the clock the arrival stamps come from.
            match.timer = loop.call_at(deadline / 1e9, match.queue.put_nowait, Flag(deadline))
            return
        if match.timing.handover is not None:
            return  # a shared device: nobody's clock runs until the reveal
        decision = match.decision
        if decision.lift is Lift.NONE:
            return
        after_s = (
            decision.lift_after_ms / 1000
            if decision.lift is Lift.AFTER_PAUSE
            else self._gate_timeout_s
        )
        due_ns = self._now() + int(after_s * 1e9)
        nudge = Nudge(match.version, due_ns)
        match.timer = loop.call_at(due_ns / 1e9, match.queue.put_nowait, nudge)
