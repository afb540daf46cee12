"""The steps a match takes on the server's own account, not a player's: the flag at a
deadline, a nudge at a gate nobody lifted, a timing fault (and the void it may bring), a
full log, a seat gone away or back, a match its person left.

Each takes the item's one reading of the clock (``now_ns``), decides its entry, and has
it stored, applied and shown (``effects.py``) like a player's command.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from photofinish.game.v1 import game_pb2
from services.arbitration.attendance import Attendance, last_heard_ns, person_last_heard_ns
from services.arbitration.effects import Effects
from services.arbitration.faults import (
    Fault,
    FaultKind,
    Tolerances,
    flag_is_tainted,
    measured,
    should_void,
)
from services.arbitration.match import AwayChange, Match, Nudge
from services.arbitration.matchlog import entries
from services.arbitration.metrics import TIMER_LATENESS, VOIDS

log = logging.getLogger("arbitration")


class ServerSteps:
    """The server's own steps of a match."""

    def __init__(
        self,
        effects: Effects,
        tolerances: Tolerances,
        broadcast: Callable[[Fault], None],
        attendance: Attendance | None = None,
    ) -> None:
        self._effects = effects
        self._rules = effects.rules
        self._tolerances = tolerances
        self._broadcast = broadcast  # a fault of the whole process reaches every match
        self._attendance = attendance

    async def flag(self, match: Match, by_ns: int, now_ns: int) -> None:
        """End the match on time if the running deadline has passed by ``by_ns``; how late
        the flag is judged is measured at ``now_ns``."""
        deadline = match.timing.deadline_ns()
        running = match.timing.clock.running
        if match.is_over() or deadline is None or running is None or by_ns < deadline:
            return
        late_ns = now_ns - deadline
        TIMER_LATENESS.observe(late_ns / 1e9)
        lateness = measured(FaultKind.TIMER_LATE, deadline, now_ns, self._tolerances)
        if lateness is not None:
            self._broadcast(lateness)  # the process was late: every exposed match is judged
            await self.fault(match, lateness, now_ns)
        tainted = flag_is_tainted(match.faults, match.timing.clock.turn_started_ns, deadline)
        if match.is_over():
            return
        if tainted is not None:
            # A casual match is not voided for a fault, unless its outcome rests on it.
            await self._void(match, tainted, now_ns)
            return
        watched = match.is_watched(now_ns)
        step = await self._effects.stepped(
            match,
            lambda: self._rules.forfeit(
                match.match_id, match.version, running, game_pb2.TERMINATION_TIME, watched
            ),
        )
        flag = entries.flag_record(match, running, deadline, now_ns)
        await self._effects.record(match, entries.flag_entry(match, step, flag, deadline), now_ns)
        self._effects.show(match, step)
        await self._effects.published(match, now_ns)
        log.info(
            "flagged",
            extra={
                "fields": {"match": match.match_id, "seat": running, "late_us": late_ns // 1000}
            },
        )

    async def nudge(self, match: Match, item: Nudge, now_ns: int) -> None:
        """Lift a gate nobody lifted by its due time (the rules' nudge)."""
        TIMER_LATENESS.observe(max(0, now_ns - item.due_ns) / 1e9)
        if match.is_over() or item.version != match.version or not match.decision.gated:
            return
        command = game_pb2.Command(nudge=game_pb2.Nudge())
        seat = min(match.decision.seats, default=0)
        watched = match.is_watched(now_ns)
        step = await self._effects.stepped(
            match,
            lambda: self._rules.apply(match.match_id, match.version, seat, command, watched),
        )
        await self._effects.record(match, entries.nudge_entry(match, step, now_ns), now_ns)
        self._effects.show(match, step)
        await self._effects.published(match, now_ns)

    async def fault(self, match: Match, fault: Fault, now_ns: int) -> None:
        """Void the match if ``fault`` hit its timing while rated; else record it."""
        # The fault that made this match's own flag late also reaches it by broadcast.
        if match.is_over() or fault in match.faults or not match.exposure.overlaps(fault):
            return
        await self._effects.record(match, entries.fault_entry(match, fault, now_ns))
        if should_void(match.created.rated, match.exposure, fault):
            await self._void(match, fault, now_ns)

    async def _void(self, match: Match, fault: Fault, now_ns: int) -> None:
        """End the match with no result: time could not be trusted (design principle 6)."""
        figures = fault.figures(self._tolerances.limit_ms(fault.kind))
        # The void reason names the fault kind first: "event_loop_lag of …".
        entry = entries.voided_entry(match, fault, figures, now_ns)
        await self._effects.record(match, entry, now_ns)
        VOIDS.labels(fault.kind.value).inc()
        await self._effects.ended_without_result(match)
        log.warning(
            "voided", extra={"fields": {"match": match.match_id, "reason": match.void_reason}}
        )

    async def full(self, match: Match, now_ns: int) -> None:
        """End the match with no result: its log has room for nothing but the end. The
        seats' bounds keep their commands short of it: only the server's own entries get
        here, over hours (matchlog/bounds.py)."""
        await self._effects.record(match, entries.full_entry(match, now_ns), now_ns)
        VOIDS.labels(entries.LOG_FULL).inc()
        await self._effects.ended_without_result(match)
        log.warning("log full", extra={"fields": {"match": match.match_id}})

    async def away_change(self, match: Match, change: AwayChange, now_ns: int) -> None:
        """Log a seat's going away or coming back, unless it no longer holds."""
        match.attendance_queued.discard(change.seat)
        if match.is_over() or (change.seat in match.away) == change.away:
            return
        attendance = self._attendance
        if (
            change.away
            and attendance is not None
            and not attendance.is_away(match, change.seat, now_ns)
        ):
            return  # heard from while the change waited in the queue
        entry = entries.away_entry(
            match, change.seat, change.away, last_heard_ns(match, change.seat), now_ns
        )
        await self._effects.record(match, entry)
        self._effects.publisher.updates(match)
        log.info(
            "away" if change.away else "back",
            extra={"fields": {"match": match.match_id, "seat": change.seat}},
        )

    async def left_alone(self, match: Match, now_ns: int) -> None:
        """End a match against the computer or on one device that its person left: no
        result, no rating, its place among the person's live matches free again."""
        match.left_alone_queued = False
        attendance = self._attendance
        if attendance is None or not attendance.is_left_alone(match, now_ns):
            return  # over already, or heard from while the end waited in the queue
        last_seen_ns = person_last_heard_ns(match)
        entry = entries.abandoned_entry(match, last_seen_ns, attendance.abandoned_after_s, now_ns)
        await self._effects.record(match, entry, now_ns)
        await self._effects.ended_without_result(match)
        log.info("abandoned", extra={"fields": {"match": match.match_id}})
