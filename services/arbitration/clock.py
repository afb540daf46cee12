"""The match clock as a value: 120 s bank + a fresh 10 s grace per genuinely new decision.

Pure arithmetic over nanosecond stamps that the caller passes in (scalachess's
Timestamper idea): only the arbitration service reads the real monotonic clock. The
rules it implements are section 5 of the Spectacular Bid rules page:

- each decision first spends its grace; only time past the grace comes off the bank;
- a draw continues the same turn, so its grace is not renewed;
- at a Start/Continue gate and during a hot-seat hand-over no clock runs;
- a command counts only if it arrives strictly before the deadline: at the deadline
  instant itself the time has run out.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from services.arbitration.decision_facts import Seat

NS_PER_MS = 1_000_000
BANK_NS = 120_000 * NS_PER_MS
GRACE_NS = 10_000 * NS_PER_MS


class Clock(msgspec.Struct, frozen=True):
    """Both players' banks and, when a clock runs, whose and since when.

    ``turn_started_ns`` is the arrival stamp that began the running decision; its grace
    is counted from there, so a continued turn (after a draw) keeps the same start.
    """

    bank_ns: tuple[int, int] = (BANK_NS, BANK_NS)
    running: Seat | None = None
    turn_started_ns: int = 0
    grace_ns: int = GRACE_NS

    def deadline_ns(self) -> int | None:
        """Return the instant the running player's time runs out, or None when stopped."""
        if self.running is None:
            return None
        return self.turn_started_ns + self.grace_ns + self.bank_ns[self.running]

    def is_in_time(self, arrival_ns: int) -> bool:
        """Return whether a command stamped ``arrival_ns`` beats the deadline (strictly)."""
        deadline = self.deadline_ns()
        return deadline is None or arrival_ns < deadline

    def remaining_ns(self, seat: Seat, now_ns: int) -> tuple[int, int]:
        """Return (grace left, bank left) of ``seat`` at ``now_ns``, as a display shows them."""
        if self.running != seat:
            return (0, self.bank_ns[seat])
        used = max(0, now_ns - self.turn_started_ns)
        grace_left = max(0, self.grace_ns - used)
        bank_left = self.bank_ns[seat] - max(0, used - self.grace_ns)
        return (grace_left, max(0, bank_left))


def charge(clock: Clock, now_ns: int) -> Clock:
    """Return the clock with the running decision ended at ``now_ns`` and nothing running.

    The time the decision took beyond its grace comes off the running player's bank.
    """
    if clock.running is None:
        return clock
    overrun = max(0, now_ns - clock.turn_started_ns - clock.grace_ns)
    banks = list(clock.bank_ns)
    banks[clock.running] = max(0, banks[clock.running] - overrun)
    return Clock((banks[0], banks[1]), None, 0, clock.grace_ns)


def start(clock: Clock, seat: Seat, now_ns: int) -> Clock:
    """Return the clock with a fresh decision of ``seat`` beginning at ``now_ns``."""
    return replace(charge(clock, now_ns), running=seat, turn_started_ns=now_ns)


def advance(clock: Clock, seat: Seat | None, fresh: bool, now_ns: int) -> Clock:
    """Return the clock after a step whose next decision is ``seat`` (None: stopped).

    A decision that is not fresh and stays with the running seat continues the turn:
    nothing is charged and the grace is not renewed.
    """
    if seat is None:
        return charge(clock, now_ns)
    if not fresh and clock.running == seat:
        return clock
    return start(clock, seat, now_ns)


def starting_clock(bank_ms: int, grace_ms: int) -> Clock:
    """Return both players' clock at the start of a match."""
    bank_ns = bank_ms * NS_PER_MS
    return Clock((bank_ns, bank_ns), None, 0, grace_ms * NS_PER_MS)
