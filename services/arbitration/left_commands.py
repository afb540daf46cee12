"""A command the match's last owner stored and left unjudged, judged by the one taking over.

A player's command is stored before the rules judge it (a COMMAND entry), and the entry
that judges it is stored later, with the next one. An owner that stopped in between left a
log that ends with the command: what its players saw of it, if anything, came of judging
it, and the engines and the arbitration's deciding are deterministic, so judging it again
from the same record gives the same. The new owner does so before it fences the match
(its TAKEN_OVER entry carries the judged one), so the log reads in the order things
counted.
"""

from __future__ import annotations

from photofinish.arbitration.v1 import log_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration import record
from services.arbitration.deciding import (
    Abort,
    Apply,
    Lost,
    Outcome,
    Refuse,
    after_rules,
    plan,
)
from services.arbitration.match import Match, Submission
from services.arbitration.matchlog import entries
from services.arbitration.matchlog.writer import LogWriter
from services.arbitration.restoring import restore
from services.arbitration.rules_client import RulesClient
from services.common.matchlogs import Stored
from services.common.rejection import Rejection
from services.common.replies import Answer


def left_command(stored: Stored) -> log_pb2.LogEntry | None:
    """Return the command the log ends with, unjudged (None: it ends otherwise)."""
    if stored.entries and stored.entries[-1].kind == log_pb2.ENTRY_KIND_COMMAND:
        return stored.entries[-1]
    return None


async def judge_left_command(
    rules: RulesClient, log_writer: LogWriter, match: Match, stored: Stored
) -> Stored:
    """Judge the command ``stored`` ends with, as its owner would have; return the log with
    the judged entry in its place. The judged entry changes ``match`` and waits in
    ``log_writer`` to be carried by the next entry stored (the takeover's fence).

    Raises:
        Rejection: the rules could not be given the match back.
    """
    command = left_command(stored)
    assert command is not None, "left_command(stored) says when"
    await restore(rules, log_writer, match, stored.entries)
    item = Submission(
        match.opened_ns + command.stamp_ns,
        command.seat,
        command.client_seq,
        command.command,
        _nobody,
    )
    deadline_ns = match.timing.deadline_ns()
    planned = plan(match, item)
    if isinstance(planned, Apply):
        answer: rules_pb2.StepReply | Rejection
        try:
            answer = await rules.apply(
                match.match_id,
                match.version,
                item.seat,
                item.command,
                resignation_only=planned.resignation_only,
            )
        except Rejection as rejection:
            answer = rejection
        judged = _entry(match, item, after_rules(match, item, planned, answer), deadline_ns)
    elif isinstance(planned, Refuse):
        judged = entries.refused_entry(match, item, planned.refusal, deadline_ns)
    else:  # its owner planned to apply it, on the same record: nothing else can come of it
        raise AssertionError(f"a stored command planned as {type(planned).__name__}")
    log_writer.judged(match.match_id, judged, command.index)
    record.apply(match, judged)
    return Stored([*stored.entries[:-1], judged], stored.last_seq)


def _entry(
    match: Match, item: Submission, outcome: Outcome, deadline_ns: int | None
) -> log_pb2.LogEntry:
    """Return the entry a judged command makes, as the match's worker makes it."""
    if isinstance(outcome, Refuse):
        return entries.refused_entry(match, item, outcome.refusal, deadline_ns)
    if isinstance(outcome, Lost):
        race = entries.race_record(match, item, outcome.refusal)
        return entries.refused_entry(match, item, outcome.refusal, deadline_ns, race)
    if isinstance(outcome, Abort):
        return entries.aborted_entry(match, item, outcome.reason, deadline_ns)
    return entries.accepted_entry(match, item, outcome.step, deadline_ns)


def _nobody(answer: Answer) -> None:
    """Nobody waits here for the answer: a retry of the command finds it in the record."""
