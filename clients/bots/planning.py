"""When a bot sends what: one pending command, revised as the views change.

Pure: the time is passed in (seconds on the event loop's monotonic clock).

Spit is played in real time, so a bot re-plans on every new update, as a person looks
again when the table changes. If the new plan is the same command, the original due time
stands (the thought is not restarted); otherwise the new command is due after its own
think time from now. A command due within the commit window is already on its way — the
hand is moving — so it is sent as planned even if the table just changed, and may lose a
race (``pile_top_changed``), as in the engine's self-play simulation (``COMMIT_MS`` there).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from games.bot import Plan

C = TypeVar("C")

COMMIT_MS = 150  # the engine's self-play uses the same window
RETRY_FIRST_S = 0.25
RETRY_MAX_S = 5.0


@dataclass(frozen=True, slots=True)
class Pace:
    """How bot time maps to real time: ``think_scale`` multiplies every think time."""

    think_scale: float = 1.0
    commit_ms: int = COMMIT_MS

    def delay_s(self, think_ms: int) -> float:
        """Return the real delay for a think time of ``think_ms``."""
        return think_ms * self.think_scale / 1000

    @property
    def commit_s(self) -> float:
        """Return the window before a command's due time in which it is no longer revised."""
        return self.delay_s(self.commit_ms)


@dataclass(frozen=True, slots=True)
class Pending(Generic[C]):
    """A command the bot has decided on, to be sent at ``due_s``."""

    command: C
    due_s: float


def revise(
    pending: Pending[C] | None, plan: Plan[C] | None, now_s: float, pace: Pace
) -> Pending[C] | None:
    """Return what is pending after a fresh ``plan`` made at ``now_s``.

    None when the bot has nothing to do; the old due time when the command is unchanged.
    """
    if plan is None:
        return None
    if pending is not None and pending.command == plan.command:
        return pending
    return Pending(plan.command, now_s + pace.delay_s(plan.think_ms))


def in_motion(pending: Pending[C] | None, now_s: float, pace: Pace) -> bool:
    """Return whether ``pending`` is due so soon (or overdue) that it is no longer revised."""
    return pending is not None and pending.due_s - now_s <= pace.commit_s


def retry_delay_s(refusals: int) -> float:
    """Return how long to wait, with no news, before re-planning after ``refusals`` in a row.

    A refusal is usually explained by an update on its way (a race lost, a gate lifted),
    which triggers a re-plan by itself; this is the fallback when none comes.
    """
    return min(RETRY_MAX_S, RETRY_FIRST_S * 2.0 ** max(0, refusals - 1))
