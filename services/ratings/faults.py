"""Test-only fault injection: die like ``kill -9`` at a chosen point of handling a result.

Crash tests start the real process with ``PF_RATINGS_CRASH_AT`` set, so it dies between
two steps whose order exactly-once depends on: after a message arrives but before it is
stored, or after the commit but before the ack. Unset in production, it does nothing.
"""

from __future__ import annotations

import enum
import logging
import os
import sys
from dataclasses import dataclass

EXIT_CODE = 137  # what a shell reports for a process killed by SIGKILL

log = logging.getLogger("ratings")


class CrashPoint(enum.Enum):
    AFTER_FETCH = "after_fetch"  # a message received, nothing stored, nothing acked
    AFTER_COMMIT = "after_commit"  # the result committed, the message not acked


@dataclass(frozen=True, slots=True)
class FaultPlan:
    """Where to die, and at the how-manyth message reaching that point (from 1)."""

    point: CrashPoint | None = None
    on_message: int = 1


class Faults:
    """Counts messages at each point and exits the process when the plan says so."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self._reached = 0

    def reached(self, point: CrashPoint) -> None:
        if self.plan.point is not point:
            return
        self._reached += 1
        if self._reached == self.plan.on_message:
            log.warning("injected crash", extra={"fields": {"at": point.value}})
            sys.stderr.flush()
            os._exit(EXIT_CODE)
