"""How long each timed decision of a match took, read back from its log. Pure.

The match's record is rebuilt entry by entry (``record``, as a takeover does), so each
figure is the arbitration's own clock: the decision's start, its grace and the bank as
they stood when the entry's stamp ended (or flagged) it (Bid rules page §5).
"""

from __future__ import annotations

from collections.abc import Sequence

from photofinish.arbitration.v1 import log_pb2, replay_pb2
from services.arbitration import record
from services.arbitration.clock import NS_PER_MS
from services.arbitration.decision_facts import Seat

_ENDS_A_DECISION = frozenset({log_pb2.ENTRY_KIND_ACCEPTED, log_pb2.ENTRY_KIND_FLAG})


def decision_times(entries: Sequence[log_pb2.LogEntry]) -> dict[int, replay_pb2.DecisionTime]:
    """Return, by entry index, the time each timed decision took (empty: no clock ran)."""
    match = record.rebuilt(entries[:1])
    if match is None or not match.timing.clocked:
        return {}
    times: dict[int, replay_pb2.DecisionTime] = {}
    turn_starts: dict[int, int] = {}  # by seat: the start of the decision last timed
    for entry in entries[1:]:
        clock = match.timing.clock
        running = clock.running
        actor = entry.flag.seat if entry.kind == log_pb2.ENTRY_KIND_FLAG else entry.seat
        if entry.kind in _ENDS_A_DECISION and running is not None and actor == running:
            at_ns = match.opened_ns + entry.stamp_ns
            _, bank_left_ns = clock.remaining_ns(Seat(running), at_ns)
            times[entry.index] = replay_pb2.DecisionTime(
                seat=running,
                took_us=(at_ns - clock.turn_started_ns) // 1000,
                grace_ms=clock.grace_ns // NS_PER_MS,
                bank_before_ms=clock.bank_ns[running] // NS_PER_MS,
                bank_after_ms=bank_left_ns // NS_PER_MS,
                continued=turn_starts.get(running) == clock.turn_started_ns,
            )
            turn_starts[running] = clock.turn_started_ns
        record.apply(match, entry)
    return times
