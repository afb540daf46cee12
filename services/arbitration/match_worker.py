"""The per-match sequencer: commands in arrival order, judged against the server's clock.

Each match has one worker task that takes items from the match's queue one at a time.
Submissions are stamped when they arrive (before anything is awaited) and queued in that
order, so the order of application is the order of arrival. Timer items (a passed
deadline, a gate nobody lifted, a due spit) join the same queue, so a command that
arrived before a deadline is always judged before the flag.

The loop takes an item, reads the clock once for it, and hands it on: a player's command
to ``player_commands.py`` (admit, plan, call the rules, settle, store, apply, publish),
anything else to ``server_steps.py``; then the result goes out if the item ended the
match, and the command gets its answer, last (a timer's item is sent at once, not held
with the next commands' messages). Every decision becomes a log entry
(``matchlog/entries.py``), stored before the match changes by it (``effects.py``): the
log is the durable record, and nothing shown can be taken back by a crash.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine

from photofinish.arbitration.v1 import arbitration_pb2
from services.arbitration.attendance import Attendance
from services.arbitration.effects import Effects
from services.arbitration.faults import Fault, Tolerances
from services.arbitration.match import (
    AwayChange,
    FaultNotice,
    Flag,
    Item,
    LeftAlone,
    Match,
    Nudge,
    Submission,
    WholeView,
)
from services.arbitration.matchlog import entries
from services.arbitration.matchlog.writer import LogWriter, Superseded
from services.arbitration.metrics import ACCEPTED, REFUSED
from services.arbitration.player_commands import PlayerCommands
from services.arbitration.publisher import Publisher
from services.arbitration.refusals import Reason, refuse
from services.arbitration.rules_client import RulesClient
from services.arbitration.server_steps import ServerSteps
from services.common.rejection import Rejection
from services.common.replies import Answer

# The coarsest step of the event loop's timers (uvloop's: one millisecond).
LOOP_TICK_S = 0.001

log = logging.getLogger("arbitration")


class MatchWorker:
    """Takes a match's items in order; each is judged, logged and published."""

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
        self._effects = Effects(rules, log_writer, publisher, schedule)
        self._server_steps = ServerSteps(self._effects, tolerances, broadcast, attendance)
        self._commands = PlayerCommands(self._effects, self._server_steps, attendance)
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
        """Judge one item; a submission gets its answer (reply or rejection) last. A timer's
        item (a flag, a nudge, someone away) is held for nothing: its rules call and its
        news leave at once, not with the next commands' messages."""
        if isinstance(item, WholeView):
            try:
                await self._effects.whole_view(match, item.seat)
            finally:
                _answer(item, None)
        elif isinstance(item, Submission):
            await self._judge(match, item)
        else:
            with self._effects.publisher.at_once():
                await self._judge(match, item)

    async def _judge(self, match: Match, item: Item) -> None:
        if isinstance(item, Flag):
            await self._until(item.deadline_ns)
        now_ns = self._now()  # the item's one reading of the clock
        steps = self._server_steps
        answer: Answer | None = None
        if not match.is_over() and self._effects.log_writer.is_full(match.match_id):
            await steps.full(match, now_ns)
        if isinstance(item, Submission):
            answer = await self._commands.take(match, item, now_ns)
            (REFUSED if isinstance(answer, Rejection) else ACCEPTED).inc()
        elif isinstance(item, FaultNotice):
            await steps.fault(match, item.fault, now_ns)
        elif isinstance(item, AwayChange):
            await steps.away_change(match, item, now_ns)
        elif isinstance(item, LeftAlone):
            await steps.left_alone(match, now_ns)
        elif isinstance(item, Flag):
            await _timer_step(steps.flag(match, item.deadline_ns, now_ns))
        elif isinstance(item, Nudge):
            await _timer_step(steps.nudge(match, item, now_ns))
        # The result goes out once the match's end is stored in the log.
        if match.status == arbitration_pb2.STATUS_FINISHED and not match.closed:
            await self._effects.record(match, entries.finished_entry(match, match.finished_ns or 0))
            await self._effects.publisher.finished(match, match.seq)
        if answer is not None:
            _answer(item, answer)

    async def _until(self, deadline_ns: int) -> None:
        """Wait until ``deadline_ns``: the flag falls at the deadline, not before. uvloop's
        timers move in whole milliseconds: its timer may wake up to one early, and a shorter
        sleep there is no sleep, so the wait goes on, a millisecond at least, until it is due."""
        while (early_ns := deadline_ns - self._now()) > 0:
            await asyncio.sleep(max(early_ns / 1e9, LOOP_TICK_S))


async def _timer_step(step: Coroutine[None, None, None]) -> None:
    # A timer has nobody to answer: a refusal (the rules service unreachable, a state that
    # moved on) is logged, and the match's next change sets a new timer.
    try:
        await step
    except Rejection as rejection:
        log.warning(
            "timer step refused",
            extra={"fields": {"reason": rejection.reason, "detail": rejection.message}},
        )


def _answer(item: Item, answer: Answer | None) -> None:
    if isinstance(item, Submission) and answer is not None:
        item.reply(answer)
    elif isinstance(item, WholeView) and not item.done.done():
        item.done.set_result(None)  # its caller looks at the match's views again


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
