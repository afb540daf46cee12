"""Timing faults and what they do to a match: the rule behind "when time cannot be trusted,
nobody wins". Pure: intervals are nanosecond stamps of the machine's monotonic clock.

A fault is an interval during which the server could not measure time reliably: its
event loop stalled, a deadline timer fired late, a command spent too long between the
gateway and the arbitration, or the connection to NATS was down. A match is *exposed*
while its timing matters: a Bid clock is running, or a Spit match is in open play (a race
can happen at any moment). A fault that overlaps a rated match's exposure voids it; a
casual match only records it, unless its outcome came from a clock the fault overlapped.
"""

from __future__ import annotations

import enum

import msgspec
from msgspec.structs import replace

NS_PER_MS = 1_000_000


class FaultKind(enum.Enum):
    """What went wrong. Values are metric labels and void reasons: never rename."""

    EVENT_LOOP_LAG = "event_loop_lag"
    TIMER_LATE = "timer_late"
    FORWARDING_DELAY = "forwarding_delay"
    NATS_DISCONNECTED = "nats_disconnected"
    ARBITRATION_RESTART = "arbitration_restart"  # the owner restarted and took it back
    ARBITRATION_FAILOVER = "arbitration_failover"  # the owner went silent; another took over


class Tolerances(msgspec.Struct, frozen=True):
    """How much of each fault the arena accepts before it stops trusting time.

    The defaults sit far above what a healthy process shows on a loaded 2-core machine
    (event-loop lag and timer lateness p99 of a few ms) and below what a person could
    notice or exploit in a race decided by arrival; docs/timing-faults.md gives the
    measurements behind them.
    """

    event_loop_lag_ms: float = 100.0
    timer_late_ms: float = 100.0
    forwarding_delay_ms: float = 100.0
    nats_disconnected_ms: float = 0.0  # any outage: views stop reaching the players

    def limit_ms(self, kind: FaultKind) -> float:
        if kind is FaultKind.EVENT_LOOP_LAG:
            return self.event_loop_lag_ms
        if kind is FaultKind.FORWARDING_DELAY:
            return self.forwarding_delay_ms
        if kind is FaultKind.TIMER_LATE:
            return self.timer_late_ms
        if kind is FaultKind.NATS_DISCONNECTED:
            return self.nats_disconnected_ms
        return 0.0  # a restart or a failover: nobody measured time while it lasted


class Fault(msgspec.Struct, frozen=True):
    """A measured interval of untrustworthy time."""

    kind: FaultKind
    start_ns: int
    end_ns: int

    @property
    def duration_ms(self) -> float:
        return (self.end_ns - self.start_ns) / NS_PER_MS

    def figures(self, limit_ms: float) -> str:
        """Return the measured figures as players and operators read them."""
        return f"{self.kind.value} of {self.duration_ms:.1f} ms (tolerance {limit_ms:g} ms)"


def measured(kind: FaultKind, start_ns: int, end_ns: int, tolerances: Tolerances) -> Fault | None:
    """Return the fault when the interval exceeds its tolerance, else None."""
    if (end_ns - start_ns) / NS_PER_MS <= tolerances.limit_ms(kind):
        return None
    return Fault(kind, start_ns, end_ns)


class Exposure(msgspec.Struct, frozen=True):
    """When a match's timing has mattered: since when it is exposed, when it last stopped."""

    since_ns: int | None = None
    last_end_ns: int | None = None

    def overlaps(self, fault: Fault) -> bool:
        """Return whether the match was exposed at any instant of ``fault``."""
        running = self.since_ns is not None and self.since_ns <= fault.end_ns
        ended_inside = self.last_end_ns is not None and self.last_end_ns >= fault.start_ns
        return running or ended_inside


def exposure_after(exposure: Exposure, exposed: bool, at_ns: int) -> Exposure:
    """Return the exposure once the match is (or is not) exposed from ``at_ns`` on."""
    if exposed and exposure.since_ns is None:
        return replace(exposure, since_ns=at_ns)
    if not exposed and exposure.since_ns is not None:
        return Exposure(None, at_ns)
    return exposure


def should_void(rated: bool, exposure: Exposure, fault: Fault) -> bool:
    """Return whether ``fault`` voids a match now: rated matches exposed to it."""
    return rated and exposure.overlaps(fault)


def flag_is_tainted(
    faults: tuple[Fault, ...], turn_started_ns: int, deadline_ns: int
) -> Fault | None:
    """Return a recorded fault inside the flagged turn (its outcome's timing), if any."""
    for fault in faults:
        if fault.start_ns <= deadline_ns and fault.end_ns >= turn_started_ns:
            return fault
    return None
