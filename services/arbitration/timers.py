"""The server's timers: a deadline flag, a gate that lifts itself, the spit after a pause."""

from __future__ import annotations

import asyncio
import time

from games.decision import Gate
from services.arbitration.match import Flag, Match, Nudge


class Timers:
    """Keeps exactly one pending timer per live match, reset after every change."""

    def __init__(self, gate_timeout_s: float, spit_pause_ms: int) -> None:
        self._gate_timeout_s = gate_timeout_s
        self._spit_pause_s = spit_pause_ms / 1000

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
        elif match.timing.handover is not None:
            return  # a shared device: nobody's clock runs until the reveal
        elif match.decision.gate in (Gate.START, Gate.CONTINUE, Gate.SPIT):
            after_s = (
                self._spit_pause_s if match.decision.gate is Gate.SPIT else self._gate_timeout_s
            )
            due_ns = time.monotonic_ns() + int(after_s * 1e9)
            nudge = Nudge(match.version, due_ns)
            match.timer = loop.call_at(due_ns / 1e9, match.queue.put_nowait, nudge)
