"""The per-match sequencer: commands in arrival order, judged against the server's clock.

Each match has one worker task that takes items from the match's queue one at a time.
Submissions are stamped when they arrive (before anything is awaited) and queued in that
order, so the order of application is the order of arrival. Timer items (a passed
deadline, a gate nobody lifted, a due spit) join the same queue, so a command that
arrived before a deadline is always judged before the flag.

What a command becomes is decided from the match's record alone (``deciding.py``: pure,
tested without a server); this loop does what was decided. Every decision becomes a log
entry (``matchlog/entries.py``). The entry is stored first; only then does the match's
record change by it (``record.apply``) and the players see it: the log is the durable
record, and nothing shown can be taken back by a crash.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration import record, spectator_view
from services.arbitration.attendance import (
    Attendance,
    last_heard_ns,
    person_last_heard_ns,
)
from services.arbitration.deciding import (
    Abort,
    FlagFirst,
    Forfeit,
    Lost,
    Refuse,
    Reveal,
    admit,
    after_rules,
    plan,
)
from services.arbitration.faults import (
    Fault,
    FaultKind,
    Tolerances,
    flag_is_tainted,
    measured,
    should_void,
)
from services.arbitration.match import (
    AwayChange,
    FaultNotice,
    Flag,
    Item,
    LeftAlone,
    Match,
    Nudge,
    Submission,
)
from services.arbitration.matchlog import bounds, entries
from services.arbitration.matchlog.writer import LogWriter, Superseded
from services.arbitration.metrics import (
    ACCEPTED,
    REFUSALS_NOT_LOGGED,
    REFUSED,
    TIMER_LATENESS,
    VOIDS,
)
from services.arbitration.publisher import Publisher
from services.arbitration.refusals import Reason, refuse
from services.arbitration.restoring import restore
from services.arbitration.rules_client import NotHeld, RulesClient
from services.common.rejection import Rejection
from services.common.replies import Answer

# The coarsest step of the event loop's timers (uvloop's: one millisecond).
LOOP_TICK_S = 0.001

log = logging.getLogger("arbitration")


class MatchWorker:
    """Judges a match's items in order through the rules service, logs and publishes them."""

    def __init__(
        self,
        rules: RulesClient,
        publisher: Publisher,
        schedule: Callable[[Match], None],
        tolerances: Tolerances,
        broadcast: Callable[[Fault], None],
        log_writer: LogWriter,
        now: Callable[[], int],
        attendance: Attendance | None = None,
    ) -> None:
        self._attendance = attendance
        self._rules = rules
        self._publisher = publisher
        self._schedule = schedule
        self._tolerances = tolerances
        self._broadcast = broadcast  # a fault of the whole process reaches every match
        self._log_writer = log_writer
        self._now = now  # the monotonic clock the arrival stamps come from

    async def run(self, match: Match) -> None:
        """Work through the match's queue until the task is cancelled or the match moves.

        An append refused as superseded means another instance took the match over while
        this one was not heard from: nothing of the refused change was shown to anyone,
        and whatever waits here is told to call again (the gateway then reaches the new
        owner).
        """
        item: Item | None = None
        try:
            while True:
                item = await match.queue.get()
                try:
                    await self.handle(match, item)
                except (Superseded, asyncio.CancelledError):
                    raise
                except Exception:
                    # A failure outside the rules (NATS, the log store) ends this item,
                    # never the match: what was stored stands, and the next item goes on.
                    log.exception("item failed", extra={"fields": {"match": match.match_id}})
                    _answer(item, failed())
                item = None
        except Superseded:
            log.error("match moved", extra={"fields": {"match": match.match_id}})
            _answer_moved(match, item)
        except asyncio.CancelledError:
            _answer_moved(match, item)  # nobody is left waiting on a stopped worker
            raise

    async def handle(self, match: Match, item: Item) -> None:
        """Judge one item; a submission gets its answer (reply or rejection) last."""
        answer: Answer | None = None
        if not match.is_over() and self._log_writer.is_full(match.match_id):
            await self._full(match)
        if isinstance(item, Submission):
            answer = await self._submission(match, item)
            (REFUSED if isinstance(answer, Rejection) else ACCEPTED).inc()
        elif isinstance(item, FaultNotice):
            await self.take_fault(match, item.fault)
        elif isinstance(item, AwayChange):
            await self._away_change(match, item)
        elif isinstance(item, LeftAlone):
            await self._left_alone(match)
        elif isinstance(item, Flag):
            # The flag falls at the deadline, not before. uvloop's timers move in whole
            # milliseconds: its timer may wake up to one early, and a shorter sleep there
            # is no sleep, so the wait goes on, a millisecond at least, until it is due.
            while (early_ns := item.deadline_ns - self._now()) > 0:
                await asyncio.sleep(max(early_ns / 1e9, LOOP_TICK_S))
            await self._timer_step(self._flag(match, item.deadline_ns))
        else:
            await self._timer_step(self._nudge(match, item))
        # The result goes out once the match's end is stored in the log.
        if match.status == arbitration_pb2.STATUS_FINISHED and not match.closed:
            await self._record(match, entries.finished_entry(match, match.finished_ns or 0))
            await self._publisher.finished(match, match.seq)
        if answer is not None:
            _answer(item, answer)

    async def _timer_step(self, step: Coroutine[None, None, None]) -> None:
        # A timer has nobody to answer: a refusal (the rules service unreachable, a state
        # that moved on) is logged, and the match's next change sets a new timer.
        try:
            await step
        except Rejection as rejection:
            log.warning(
                "timer step refused",
                extra={"fields": {"reason": rejection.reason, "detail": rejection.message}},
            )

    async def _record(
        self, match: Match, entry: log_pb2.LogEntry, now_ns: int | None = None
    ) -> None:
        """Store ``entry``, then change the match by it (nothing is shown before)."""
        await self._log_writer.append(match, entry)
        record.apply(match, entry, now_ns)

    async def _stepped(
        self, match: Match, call: Callable[[], Awaitable[rules_pb2.StepReply]]
    ) -> rules_pb2.StepReply:
        """Return the rules' step; a rules instance that lost the match gets it back first."""
        try:
            return await call()
        except NotHeld:
            await restore(self._rules, self._log_writer, match)
            return await call()

    def _show(self, match: Match, step: rules_pb2.StepReply) -> None:
        """Take the step's perspectives as the match's (only after its entry is stored)."""
        match.perspectives = {p.seat: p.seen for p in step.perspectives}

    async def _published(self, match: Match) -> None:
        """Publish the match as it now stands and set its next timer."""
        if match.is_watched(self._now()):
            await spectator_view.refresh(match, self._rules)  # a watch began during the step
        self._publisher.updates(match)
        self._schedule(match)

    async def _submission(self, match: Match, item: Submission) -> Answer:
        if self._attendance is not None:
            self._attendance.heard(match, item.seat, item.arrival_ns)
        answered = admit(match, item)
        if answered is not None:
            if answered.taken:
                match.last_client_seq[item.seat] = item.client_seq
                match.remember(item.seat, item.client_seq, answered.answer)
            return answered.answer
        item.command.DiscardUnknownFields()  # the log keeps a command as the rules read it
        return await self._judge(match, item, match.timing.deadline_ns())

    async def _judge(self, match: Match, item: Submission, deadline_ns: int | None) -> Answer:
        """Return the answer to a submission, its entry stored and what it changed shown.

        ``deadline_ns`` is the deadline in force when the command's turn came.
        """
        planned = plan(match, item)
        if isinstance(planned, Refuse):
            return await self._refused(match, item, planned.refusal, deadline_ns)
        if isinstance(planned, FlagFirst):
            await self._flag(match, item.arrival_ns)
            return await self._refused(match, item, planned.refusal, deadline_ns)
        if isinstance(planned, Reveal):
            await self._record(match, entries.reveal_entry(match, item, deadline_ns))
            await self._published(match)
            return _kept(match, item)
        if isinstance(planned, Abort):
            return await self._abort(match, item, planned.reason, deadline_ns)
        watched = match.is_watched(self._now())
        if isinstance(planned, Forfeit):
            seat = planned.seat
            step = await self._stepped(
                match,
                lambda: self._rules.forfeit(
                    match.match_id, match.version, seat, game_pb2.TERMINATION_ABANDONED, watched
                ),
            )
            return await self._accepted(match, item, step, deadline_ns)
        answer: rules_pb2.StepReply | Rejection
        try:
            answer = await self._stepped(
                match,
                lambda: self._rules.apply(
                    match.match_id,
                    match.version,
                    item.seat,
                    item.command,
                    watched,
                    resignation_only=planned.resignation_only,
                ),
            )
        except Rejection as rejection:
            answer = rejection
        outcome = after_rules(match, item, planned, answer)
        if isinstance(outcome, Refuse):
            return await self._refused(match, item, outcome.refusal, deadline_ns)
        if isinstance(outcome, Lost):
            return await self._lost(match, item, outcome.refusal, deadline_ns)
        if isinstance(outcome, Abort):
            return await self._abort(match, item, outcome.reason, deadline_ns)
        return await self._accepted(match, item, outcome.step, deadline_ns)

    async def _accepted(
        self, match: Match, item: Submission, step: rules_pb2.StepReply, deadline_ns: int | None
    ) -> Answer:
        """Store the accepted command's step, show it, and return its answer."""
        await self._record(
            match, entries.accepted_entry(match, item, step, deadline_ns), self._now()
        )
        self._show(match, step)
        await self._published(match)
        return _kept(match, item)

    async def _abort(
        self, match: Match, item: Submission, reason: str, deadline_ns: int | None
    ) -> Answer:
        """End the match with no result and no rating, as ``item`` asked."""
        entry = entries.aborted_entry(match, item, reason, deadline_ns)
        await self._record(match, entry, self._now())
        self._publisher.updates(match)
        await self._publisher.voided(match, match.void_kind, reason)
        self._schedule(match)
        log.info("aborted", extra={"fields": {"match": match.match_id, "why": reason}})
        return _kept(match, item)

    async def _refused(
        self,
        match: Match,
        item: Submission,
        refusal: Rejection,
        deadline_ns: int | None,
        race: log_pb2.RaceRecord | None = None,
    ) -> Rejection:
        await self._stored_refusal(match, item, refusal, deadline_ns, race)
        return refusal

    async def _stored_refusal(
        self,
        match: Match,
        item: Submission,
        refusal: Rejection,
        deadline_ns: int | None,
        race: log_pb2.RaceRecord | None,
    ) -> bool:
        """Return whether the refusal was stored; past the seat's bound it is only answered
        and kept for its retries (matchlog/bounds.py): no seat grows the log without end."""
        entry = entries.refused_entry(match, item, refusal, deadline_ns, race)
        stored = match.refusals.get(item.seat, 0)
        if self._log_writer.is_full(match.match_id) or not bounds.keeps_refusal(
            stored, refusal.reason, race is not None
        ):
            record.unlogged(match, entry)
            REFUSALS_NOT_LOGGED.inc()
            return False
        await self._record(match, entry)
        return True

    async def _lost(
        self, match: Match, item: Submission, rejection: Rejection, deadline_ns: int | None
    ) -> Rejection:
        """Refuse a command the rules refused; when it lost a race, tell both players who
        landed and by how much (in the refusal's metadata and a race notice)."""
        race = entries.race_record(match, item, rejection)
        if race is not None:
            rejection.metadata.update(
                landed_card=race.landed_card,
                landed_seat=str(race.landed_seat),
                gap_us=str(race.gap_us),
            )
        stored = await self._stored_refusal(match, item, rejection, deadline_ns, race)
        if race is not None and stored:
            self._publisher.updates(match)  # the race notice, once it is in the log
        return rejection

    async def _away_change(self, match: Match, change: AwayChange) -> None:
        """Log a seat's going away or coming back, unless it no longer holds."""
        match.attendance_queued.discard(change.seat)
        if match.is_over() or (change.seat in match.away) == change.away:
            return
        attendance = self._attendance
        if (
            change.away
            and attendance is not None
            and not attendance.is_away_now(match, change.seat)
        ):
            return  # heard from while the change waited in the queue
        entry = entries.away_entry(
            match, change.seat, change.away, last_heard_ns(match, change.seat), self._now()
        )
        await self._record(match, entry)
        self._publisher.updates(match)
        log.info(
            "away" if change.away else "back",
            extra={"fields": {"match": match.match_id, "seat": change.seat}},
        )

    async def _left_alone(self, match: Match) -> None:
        """End a match against the computer or on one device that its person left: no
        result, no rating, its place among the person's live matches free again."""
        match.left_alone_queued = False
        attendance = self._attendance
        if attendance is None or not attendance.is_left_alone_now(match):
            return  # over already, or heard from while the end waited in the queue
        now_ns = self._now()
        last_seen_ns = person_last_heard_ns(match)
        entry = entries.abandoned_entry(match, last_seen_ns, attendance.abandoned_after_s, now_ns)
        await self._record(match, entry, now_ns)
        self._publisher.updates(match)
        await self._publisher.voided(match, match.void_kind, match.void_reason)
        self._schedule(match)
        log.info("abandoned", extra={"fields": {"match": match.match_id}})

    async def _flag(self, match: Match, now_ns: int) -> None:
        """End the match on time if the running deadline has passed by ``now_ns``."""
        deadline = match.timing.deadline_ns()
        running = match.timing.clock.running
        if match.is_over() or deadline is None or running is None or now_ns < deadline:
            return
        late_ns = self._now() - deadline
        TIMER_LATENESS.observe(late_ns / 1e9)
        lateness = measured(FaultKind.TIMER_LATE, deadline, deadline + late_ns, self._tolerances)
        if lateness is not None:
            self._broadcast(lateness)  # the process was late: every exposed match is judged
            await self.take_fault(match, lateness)
        tainted = flag_is_tainted(match.faults, match.timing.clock.turn_started_ns, deadline)
        if match.is_over():
            return
        if tainted is not None:
            # A casual match is not voided for a fault, unless its outcome rests on it.
            await self._void(match, tainted)
            return
        watched = match.is_watched(self._now())
        step = await self._stepped(
            match,
            lambda: self._rules.forfeit(
                match.match_id, match.version, running, game_pb2.TERMINATION_TIME, watched
            ),
        )
        flag = entries.flag_record(match, running, deadline, deadline + late_ns)
        await self._record(match, entries.flag_entry(match, step, flag, deadline), self._now())
        self._show(match, step)
        await self._published(match)
        log.info(
            "flagged",
            extra={
                "fields": {
                    "match": match.match_id,
                    "seat": running,
                    "late_us": (self._now() - deadline) // 1000,
                }
            },
        )

    async def _nudge(self, match: Match, item: Nudge) -> None:
        TIMER_LATENESS.observe(max(0, self._now() - item.due_ns) / 1e9)
        if match.is_over() or item.version != match.version or not match.decision.gated:
            return
        command = game_pb2.Command(nudge=game_pb2.Nudge())
        seat = min(match.decision.seats, default=0)
        watched = match.is_watched(self._now())
        step = await self._stepped(
            match,
            lambda: self._rules.apply(match.match_id, match.version, seat, command, watched),
        )
        now_ns = self._now()
        await self._record(match, entries.nudge_entry(match, step, now_ns), now_ns)
        self._show(match, step)
        await self._published(match)

    async def take_fault(self, match: Match, fault: Fault) -> None:
        """Void the match if ``fault`` hit its timing while rated; else record it."""
        # The fault that made this match's own flag late also reaches it by broadcast.
        if match.is_over() or fault in match.faults or not match.exposure.overlaps(fault):
            return
        await self._record(match, entries.fault_entry(match, fault, self._now()))
        if should_void(match.created.rated, match.exposure, fault):
            await self._void(match, fault)

    async def _void(self, match: Match, fault: Fault) -> None:
        """End the match with no result: time could not be trusted (design principle 6)."""
        figures = fault.figures(self._tolerances.limit_ms(fault.kind))
        now_ns = self._now()
        # The void reason names the fault kind first: "event_loop_lag of …".
        await self._record(match, entries.voided_entry(match, fault, figures, now_ns), now_ns)
        VOIDS.labels(fault.kind.value).inc()
        self._publisher.updates(match)
        await self._publisher.voided(match, match.void_kind, figures)
        self._schedule(match)
        log.warning(
            "voided", extra={"fields": {"match": match.match_id, "reason": match.void_reason}}
        )

    async def _full(self, match: Match) -> None:
        """End the match with no result: its log has room for nothing but the end. The
        seats' bounds keep their commands short of it: only the server's own entries get
        here, over hours (matchlog/bounds.py)."""
        now_ns = self._now()
        await self._record(match, entries.full_entry(match, now_ns), now_ns)
        VOIDS.labels(entries.LOG_FULL).inc()
        self._publisher.updates(match)
        await self._publisher.voided(match, match.void_kind, match.void_reason)
        self._schedule(match)
        log.warning("log full", extra={"fields": {"match": match.match_id}})


def _kept(match: Match, item: Submission) -> Answer:
    """Return the answer the stored entry gave the submission (``record`` kept it)."""
    answer = match.answer_to(item.seat, item.client_seq)
    assert answer is not None, "an applied entry keeps its command's answer"
    return answer


def _answer(item: Item, answer: Answer) -> None:
    if isinstance(item, Submission):
        item.reply(answer)


def _answer_moved(match: Match, current: Item | None) -> None:
    """Tell the command being judged and every queued one to go to the new owner."""
    items = [current] if current is not None else []
    while not match.queue.empty():
        items.append(match.queue.get_nowait())
    for item in items:
        _answer(item, moved())


def moved() -> Rejection:
    """The answer to a command this instance will not judge: its match runs elsewhere."""
    return refuse(
        Reason.MATCH_MOVED,
        "this arbitration instance no longer runs the match; send the command again",
    )


def failed() -> Rejection:
    """The answer to a command whose judging failed outside the rules."""
    return refuse(
        Reason.INTERNAL_ERROR,
        "the server failed while judging this command; the next update shows the match",
    )


def spawn(worker: MatchWorker, match: Match) -> asyncio.Task[None]:
    """Start the match's worker task."""
    return asyncio.get_running_loop().create_task(worker.run(match), name=f"match-{match.match_id}")
