"""The server's timers: a deadline flag, and the nudge a decision asks for when nobody acts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from services.arbitration.decision_facts import Lift
from services.arbitration.match import Flag, Match, Nudge


class Timers:
    """Keeps one pending timer per live match for what its state calls for now.

    A decision's lift comes from the rules: after the gate timeout (players owe presses
    and may have left) or after the game's own pause (an action that is due).

    Every step of a clocked game moves the deadline, mostly later (the next player's
    grace starts); arming a new timer each time costs the event loop a timer made and one
    cancelled. So a timer armed for earlier than what is wanted is kept, and when it fires
    it arms for what is wanted then; only a wish for earlier re-arms at once.
    """

    def __init__(self, gate_timeout_s: float, now: Callable[[], int]) -> None:
        self._gate_timeout_s = gate_timeout_s
        self._now = now  # the arbitration's monotonic clock, the event loop's own

    def schedule(self, match: Match) -> None:
        """Set the match's timer to what its current state calls for, if anything."""
        wanted = None if match.is_over() else self._wanted(match)
        match.wanted_timer = wanted
        if wanted is None:
            _disarm(match)
        elif match.timer is None or match.timer_due_ns > wanted[0]:
            _disarm(match)
            self._arm(match, wanted[0])

    def _wanted(self, match: Match) -> tuple[int, Flag | Nudge] | None:
        """Return when the match's timer is due and what it then queues (None: no timer)."""
        deadline = match.timing.deadline_ns()
        if deadline is not None:
            return deadline, Flag(deadline)
        if match.timing.handover is not None:
            return None  # a shared device: nobody's clock runs until the reveal
        decision = match.decision
        if decision.lift is Lift.NONE:
            return None
        after_s = (
            decision.lift_after_ms / 1000
            if decision.lift is Lift.AFTER_PAUSE
            else self._gate_timeout_s
        )
        due_ns = self._now() + int(after_s * 1e9)
        return due_ns, Nudge(match.version, due_ns)

    def _arm(self, match: Match, due_ns: int) -> None:
        match.timer_due_ns = due_ns
        # loop.time() is time.monotonic(), the clock the arrival stamps come from.
        match.timer = asyncio.get_running_loop().call_at(due_ns / 1e9, self._fired, match)

    def _fired(self, match: Match) -> None:
        """Queue what is wanted now if it is due; arm for it if it is due later."""
        match.timer = None
        wanted = match.wanted_timer
        if wanted is None:
            return
        due_ns, item = wanted
        if due_ns > match.timer_due_ns:
            self._arm(match, due_ns)
            return
        match.wanted_timer = None
        match.queue.put_nowait(item)


def _disarm(match: Match) -> None:
    if match.timer is not None:
        match.timer.cancel()
        match.timer = None
