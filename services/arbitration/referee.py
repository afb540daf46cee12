"""The per-match sequencer: commands in arrival order, judged against the server's clock.

Each match has one worker task that takes items from the match's queue one at a time.
Submissions are stamped when they arrive (before anything is awaited) and queued in that
order, so the order of application is the order of arrival. Timer items (a passed
deadline, a gate nobody lifted, a due spit) join the same queue, so a command that
arrived before a deadline is always judged before the flag.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine

import grpc

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration import spectators
from services.arbitration.decision import Seat, decision_from_proto
from services.arbitration.faults import (
    Fault,
    FaultKind,
    Tolerances,
    exposure_after,
    flag_is_tainted,
    measured,
    should_void,
)
from services.arbitration.match import FaultNotice, Flag, Item, Landing, Match, Nudge, Submission
from services.arbitration.matchlog.entries import flag_record
from services.arbitration.matchlog.writer import LogWriter
from services.arbitration.metrics import COMMANDS, TIMER_LATENESS, VOIDS
from services.arbitration.publisher import Publisher
from services.arbitration.rules import RulesClient
from services.arbitration.store import Superseded
from services.arbitration.timing import after_reveal, after_step
from services.common.rejection import Rejection

log = logging.getLogger("arbitration")


def refuse(
    reason: str, message: str, code: grpc.StatusCode = grpc.StatusCode.FAILED_PRECONDITION
) -> Rejection:
    return Rejection(code, reason, message)


class Referee:
    """Applies a match's items in order through the rules service and publishes the result."""

    def __init__(
        self,
        rules: RulesClient,
        publisher: Publisher,
        schedule: Callable[[Match], None],
        tolerances: Tolerances,
        broadcast: Callable[[Fault], None],
        log_writer: LogWriter | None = None,
        save: Callable[[Match], Awaitable[None]] | None = None,
        now: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self._rules = rules
        self._publisher = publisher
        self._schedule = schedule
        self._tolerances = tolerances
        self._broadcast = broadcast  # a fault of the whole process reaches every match
        self._log_writer = log_writer or LogWriter.discarding()
        # Snapshots for a takeover: saved before anyone sees the change they carry.
        self._save = save or _nowhere
        self._now = now  # the monotonic clock the arrival stamps come from

    async def run(self, match: Match) -> None:
        """Work through the match's queue until the task is cancelled or the match moves.

        A save refused as superseded means another instance took the match over while this
        one was not heard from: nothing of the refused change was shown to anyone, and
        whatever waits here is told to call again (the gateway then reaches the new owner).
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
                    # never the match: what was saved stands, and the next item goes on.
                    log.exception("item failed", extra={"fields": {"match": match.match_id}})
                    _answer_failed(item)
                item = None
        except Superseded:
            log.error("match moved", extra={"fields": {"match": match.match_id}})
            _answer_moved(match, item)
        except asyncio.CancelledError:
            _answer_moved(match, item)  # nobody is left waiting on a stopped worker
            raise

    async def handle(self, match: Match, item: Item) -> None:
        """Apply one item; a submission's future gets its answer (reply or rejection)."""
        if isinstance(item, Submission):
            answer = await self._submission(match, item)
            COMMANDS.labels("refused" if isinstance(answer, Rejection) else "accepted").inc()
            if isinstance(answer, Rejection):
                item.answer.set_exception(answer)
            else:
                item.answer.set_result(answer)
        elif isinstance(item, FaultNotice):
            await self.judge_fault(match, item.fault)
        elif isinstance(item, Flag):
            # The loop may wake a hair early; the flag falls at the deadline, not before.
            early_ns = item.deadline_ns - self._now()
            if early_ns > 0:
                await asyncio.sleep(early_ns / 1e9)
            await self._timer_step(self._flag(match, item.deadline_ns))
        else:
            await self._timer_step(self._nudge(match, item))
        # The result goes out once the item's entries and the end are stored in the log.
        if match.outcome is not None and await self._log_writer.seal(match):
            await self._publisher.finished(match, match.seq)

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

    async def _submission(
        self, match: Match, item: Submission
    ) -> arbitration_pb2.SubmitReply | Rejection:
        cached = match.answer_to(item.seat, item.client_seq)
        if cached is not None:
            return cached  # a retry: answered, never applied twice
        if item.client_seq <= match.last_client_seq.get(item.seat, 0):
            return refuse(
                "stale_client_seq", f"client_seq {item.client_seq} was already used or skipped"
            )
        match.last_client_seq[item.seat] = item.client_seq
        deadline_ns = match.timing.deadline_ns()
        answer = await self._judge(match, item)
        self._log_writer.judged(match, item, answer, deadline_ns)
        match.remember(item.seat, item.client_seq, answer)
        return answer

    async def _judge(
        self, match: Match, item: Submission
    ) -> arbitration_pb2.SubmitReply | Rejection:
        if match.is_over():
            return refuse("match_over", "the match is over")
        kind = item.command.WhichOneof("kind")
        if kind is None or kind == "nudge":
            return refuse(
                "bad_command",
                "the command is empty or not a player's",
                grpc.StatusCode.INVALID_ARGUMENT,
            )
        if not match.timing.is_in_time(item.arrival_ns):
            running = match.timing.clock.running
            await self._flag(match, item.arrival_ns)
            if running == item.seat:
                return refuse("too_late", "the command reached the server after your deadline")
            return refuse("match_over", "the match is over")
        if kind == "reveal":
            return await self._reveal(match, item)
        try:
            watched = match.is_watched(self._now())
            step = await self._rules.apply(
                match.game, match.state, item.seat, item.command, watched
            )
        except Rejection as rejection:
            if match.timing.handover is not None:
                return _reveal_first(match)
            await self._note_race(match, item, rejection)
            return rejection
        if match.timing.handover is not None and not step.resignation:
            # Only a resignation goes before the reveal; the rules' step is not taken.
            return _reveal_first(match)
        await self._advance(match, step, item.arrival_ns, item.seat, item.client_seq)
        return self._reply(match, item.arrival_ns)

    async def _reveal(
        self, match: Match, item: Submission
    ) -> arbitration_pb2.SubmitReply | Rejection:
        if match.timing.handover != item.seat:
            return refuse("no_handover", "there is no hand-over waiting for this seat")
        match.timing = after_reveal(match.timing, Seat(item.seat), item.arrival_ns)
        match.exposure = exposure_after(match.exposure, match.is_exposed(), item.arrival_ns)
        match.seq += 1
        match.remember(item.seat, item.client_seq, self._reply(match, item.arrival_ns))
        await self._save(match)
        await self._publisher.updates(match)
        self._schedule(match)
        return self._reply(match, item.arrival_ns)

    def _reply(self, match: Match, arrival_ns: int) -> arbitration_pb2.SubmitReply:
        return arbitration_pb2.SubmitReply(
            seq=match.seq, arrival_us=(arrival_ns - match.opened_ns) // 1000
        )

    async def _advance(
        self,
        match: Match,
        step: rules_pb2.StepReply,
        at_ns: int,
        seat: int | None,
        client_seq: int = 0,
    ) -> None:
        """Take a rules step as the match's new state, at the instant ``at_ns``.

        A player's command (``client_seq`` > 0) has its answer recorded before the snapshot
        is saved, so a retry after a takeover is answered, not applied again.
        """
        match.seq += 1
        match.state = step.state
        match.version = step.version
        match.decision_proto = step.decision
        match.decision = decision_from_proto(step.decision)
        match.perspectives = {p.seat: p.seen for p in step.perspectives}
        if match.is_watched(self._now()):
            await spectators.refresh(match, self._rules)  # a watch began during the step
        match.timing = after_step(match.timing, match.decision, at_ns)
        match.race = None
        if step.claim and seat is not None:
            match.claims[step.claim] = Landing(seat, step.claim_label, at_ns, match.seq)
        if step.HasField("outcome"):
            match.outcome = step.outcome
            match.status = arbitration_pb2.STATUS_FINISHED
            match.finished_ns = self._now()
        match.exposure = exposure_after(match.exposure, match.is_exposed(), at_ns)
        if seat is not None and client_seq > 0:
            match.remember(seat, client_seq, self._reply(match, at_ns))
        await self._save(match)
        await self._publisher.updates(match)
        self._schedule(match)

    async def _note_race(self, match: Match, item: Submission, rejection: Rejection) -> None:
        """When a command lost a race, tell both players who landed and by how much.

        The rules say a refusal lost a race for a claim (``lost_race``); the race is
        against the accepted command that last landed that claim, if another seat's.
        """
        claim = rejection.metadata.get("claim", "")
        landed = match.claims.get(claim)
        lost = rejection.metadata.get("lost_race") == "true"
        if not lost or landed is None or landed.seat == item.seat:
            return
        gap_us = (item.arrival_ns - landed.arrival_ns) // 1000
        slot = rejection.metadata.get("claim_slot", "")
        match.race = arbitration_pb2.Race(
            pile=int(slot) if slot.isdigit() else -1,
            claim=claim,
            landed_seq=landed.seq,
            landed_seat=landed.seat,
            landed_card=landed.label,
            refused_seat=item.seat,
            refused_card=rejection.metadata.get("label", ""),
            gap_us=gap_us,
        )
        rejection.metadata.update(
            landed_card=landed.label, landed_seat=str(landed.seat), gap_us=str(gap_us)
        )
        await self._publisher.updates(match)

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
            await self.judge_fault(match, lateness)
        tainted = flag_is_tainted(match.faults, match.timing.clock.turn_started_ns, deadline)
        if match.is_over():
            return
        if tainted is not None:
            # A casual match is not voided for a fault, unless its outcome rests on it.
            await self._void(match, tainted)
            return
        step = await self._rules.forfeit(
            match.game,
            match.state,
            running,
            game_pb2.TERMINATION_TIME,
            match.is_watched(self._now()),
        )
        match.flag = flag_record(match, running, deadline, deadline + late_ns)
        await self._advance(match, step, deadline, None)
        self._log_writer.flagged(match)
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
        step = await self._rules.apply(match.game, match.state, seat, command, watched)
        await self._advance(match, step, self._now(), None)
        self._log_writer.nudged(match)

    async def judge_fault(self, match: Match, fault: Fault) -> None:
        """Void the match if ``fault`` hit its timing while rated; else remember it."""
        # The fault that made this match's own flag late also reaches it by broadcast.
        if match.is_over() or fault in match.faults or not match.exposure.overlaps(fault):
            return
        match.faults = (*match.faults, fault)
        if should_void(match.created.rated, match.exposure, fault):
            await self._void(match, fault)

    async def _void(self, match: Match, fault: Fault) -> None:
        """End the match with no result: time could not be trusted (design principle 6)."""
        figures = fault.figures(self._tolerances.limit_ms(fault.kind))
        match.status = arbitration_pb2.STATUS_VOIDED
        match.void_reason = figures  # names the fault kind first: "event_loop_lag of …"
        match.finished_ns = self._now()
        match.seq += 1
        VOIDS.labels(fault.kind.value).inc()
        await self._save(match)
        await self._publisher.updates(match)
        await self._log_writer.seal(match)
        await self._publisher.voided(match, fault.kind.value, figures)
        self._schedule(match)
        log.warning(
            "voided", extra={"fields": {"match": match.match_id, "reason": match.void_reason}}
        )


def _answer_moved(match: Match, current: Item | None) -> None:
    """Tell the command being judged and every queued one to go to the new owner."""
    items = [current] if current is not None else []
    while not match.queue.empty():
        items.append(match.queue.get_nowait())
    for item in items:
        if isinstance(item, Submission) and not item.answer.done():
            item.answer.set_exception(moved())


def _answer_failed(item: Item) -> None:
    if isinstance(item, Submission) and not item.answer.done():
        item.answer.set_exception(failed())


def moved() -> Rejection:
    """The answer to a command this instance will not judge: its match runs elsewhere."""
    return Rejection(
        grpc.StatusCode.UNAVAILABLE,
        "match_moved",
        "this arbitration instance no longer runs the match; send the command again",
    )


def failed() -> Rejection:
    """The answer to a command whose judging failed outside the rules."""
    return Rejection(
        grpc.StatusCode.UNAVAILABLE,
        "internal_error",
        "the server failed while judging this command; the next update shows the match",
    )


async def _nowhere(match: Match) -> None:
    """Save nothing (a referee built without a snapshot store)."""


def _reveal_first(match: Match) -> Rejection:
    return refuse("reveal_first", f"seat {match.timing.handover} must reveal their hand first")


def spawn(referee: Referee, match: Match) -> asyncio.Task[None]:
    """Start the match's worker task."""
    return asyncio.get_running_loop().create_task(
        referee.run(match), name=f"match-{match.match_id}"
    )
