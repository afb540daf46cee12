"""A player's command, in one straight line: admit, plan, call the rules, settle, store,
apply, publish, answer.

What the command becomes is decided from the match's record alone (``deciding.py``:
pure, tested without a server); this module does what was decided, through the same
effects as the server's own steps (``effects.py``: the entry stored before the match
changes by it, and only then shown). The answer is the one the stored entry gave
(``record`` keeps it for the command's retries).
"""

from __future__ import annotations

import logging

from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration import record
from services.arbitration.attendance import Attendance
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
from services.arbitration.effects import Effects
from services.arbitration.match import Match, Submission
from services.arbitration.matchlog import bounds, entries
from services.arbitration.metrics import REFUSALS_NOT_LOGGED
from services.arbitration.server_steps import ServerSteps
from services.common.rejection import Rejection
from services.common.replies import Answer

log = logging.getLogger("arbitration")


class PlayerCommands:
    """Judges each player's command of a match, its turn come."""

    def __init__(
        self, effects: Effects, server_steps: ServerSteps, attendance: Attendance | None = None
    ) -> None:
        self._effects = effects
        self._rules = effects.rules
        self._server_steps = server_steps  # a command after the deadline: the flag first
        self._attendance = attendance

    async def take(self, match: Match, item: Submission, now_ns: int) -> Answer:
        """Return the answer to ``item``, its entry stored and what it changed shown."""
        if self._attendance is not None:
            self._attendance.heard(match, item.seat, item.arrival_ns)
        match.judging, match.judged_alone = None, False  # set once its command is stored
        answered = admit(match, item)
        if answered is not None:
            if answered.taken:
                match.last_client_seq[item.seat] = item.client_seq
                match.remember(item.seat, item.client_seq, answered.answer)
            return answered.answer
        item.command.DiscardUnknownFields()  # the log keeps a command as the rules read it
        # The deadline in force when the command's turn came (a flag may end it below).
        deadline_ns = match.timing.deadline_ns()
        planned = plan(match, item)
        if isinstance(planned, Refuse):
            return await self._refused(match, item, planned.refusal, deadline_ns)
        if isinstance(planned, FlagFirst):
            await self._server_steps.flag(match, item.arrival_ns, now_ns)
            return await self._refused(match, item, planned.refusal, deadline_ns)
        if isinstance(planned, Reveal):
            await self._effects.record(match, entries.reveal_entry(match, item, deadline_ns))
            await self._effects.published(match, now_ns)
            return _kept(match, item)
        if isinstance(planned, Abort):
            return await self._abort(match, item, planned.reason, deadline_ns, now_ns)
        watched = match.is_watched(now_ns)
        if isinstance(planned, Forfeit):
            seat = planned.seat
            step = await self._effects.stepped(
                match,
                lambda: self._rules.forfeit(
                    match.match_id, match.version, seat, game_pb2.TERMINATION_ABANDONED, watched
                ),
            )
            return await self._accepted(match, item, step, deadline_ns, now_ns)
        answer: rules_pb2.StepReply | Rejection
        try:
            answer = await self._effects.judged(match, item, planned, deadline_ns, watched)
        except Rejection as rejection:
            answer = rejection
        outcome = after_rules(match, item, planned, answer)
        if isinstance(outcome, Refuse):
            return await self._refused(match, item, outcome.refusal, deadline_ns)
        if isinstance(outcome, Lost):
            return await self._lost(match, item, outcome.refusal, deadline_ns)
        if isinstance(outcome, Abort):
            return await self._abort(match, item, outcome.reason, deadline_ns, now_ns)
        return await self._accepted(match, item, outcome.step, deadline_ns, now_ns)

    async def _accepted(
        self,
        match: Match,
        item: Submission,
        step: rules_pb2.StepReply,
        deadline_ns: int | None,
        now_ns: int,
    ) -> Answer:
        """Store the accepted command's step, show it, and return its answer."""
        entry = entries.accepted_entry(match, item, step, deadline_ns)
        await self._effects.record(match, entry, now_ns)
        self._effects.show(match, step)
        await self._effects.published(match, now_ns)
        return _kept(match, item)

    async def _abort(
        self, match: Match, item: Submission, reason: str, deadline_ns: int | None, now_ns: int
    ) -> Answer:
        """End the match with no result and no rating, as ``item`` asked."""
        entry = entries.aborted_entry(match, item, reason, deadline_ns)
        await self._effects.record(match, entry, now_ns)
        await self._effects.ended_without_result(match)
        log.info("aborted", extra={"fields": {"match": match.match_id, "why": reason}})
        return _kept(match, item)

    async def _refused(
        self, match: Match, item: Submission, refusal: Rejection, deadline_ns: int | None
    ) -> Rejection:
        await self._stored_refusal(match, item, refusal, deadline_ns, None)
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
        and kept for its retries (matchlog/bounds.py): no seat grows the log without end.
        A refusal of a command stored before it was judged takes the command's place."""
        entry = entries.refused_entry(match, item, refusal, deadline_ns, race)
        stored = match.refusals.get(item.seat, 0)
        if match.judging is None and (
            self._effects.log_writer.is_full(match.match_id)
            or not bounds.keeps_refusal(stored, refusal.reason, race is not None)
        ):
            record.unlogged(match, entry)
            REFUSALS_NOT_LOGGED.inc()
            return False
        await self._effects.record(match, entry)
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
            self._effects.publisher.updates(match)  # the race notice, once it is in the log
        return rejection


def _kept(match: Match, item: Submission) -> Answer:
    """Return the answer the stored entry gave the submission (``record`` kept it)."""
    answer = match.answer_to(item.seat, item.client_seq)
    assert answer is not None, "an applied entry keeps its command's answer"
    return answer
