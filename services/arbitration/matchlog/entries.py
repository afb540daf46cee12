"""The arbitration log's entries, built from a match's record. Pure: stamps are passed in.

One entry per thing the arbitration decided (docs/arbitration-log.md): the header when a
match opens, each command it judged (accepted, refused, a hot-seat reveal), each flag and
nudge it made, and the end. Entries carry the server's stamps in µs since the match
opened, never a client's time, and no view: commands are what the players sent.
"""

from __future__ import annotations

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.match import Answer, Match, Submission
from services.common.rejection import Rejection

SERVER = -1  # the seat of an entry the server made itself

# Entries after which the state may differ: they carry its hash (see ``LogWriter``).
CHANGES_STATE = frozenset(
    {
        log_pb2.ENTRY_KIND_OPENED,
        log_pb2.ENTRY_KIND_ACCEPTED,
        log_pb2.ENTRY_KIND_FLAG,
        log_pb2.ENTRY_KIND_NUDGE,
        log_pb2.ENTRY_KIND_FINISHED,
        log_pb2.ENTRY_KIND_VOIDED,
    }
)


def since_open_us(match: Match, stamp_ns: int) -> int:
    """Return ``stamp_ns`` as µs since the match opened."""
    return (stamp_ns - match.opened_ns) // 1000


def opened_entry(match: Match, instance: str) -> log_pb2.LogEntry:
    """Return the header: the match as created, so the log replays on its own."""
    clock = match.timing.clock
    return log_pb2.LogEntry(
        match_id=match.match_id,
        kind=log_pb2.ENTRY_KIND_OPENED,
        seq=match.seq,
        seat=SERVER,
        version=match.version,
        created=match.created,
        clocked=match.timing.clocked,
        bank_ms=clock.bank_ns[0] // 1_000_000 if match.timing.clocked else 0,
        grace_ms=clock.grace_ns // 1_000_000 if match.timing.clocked else 0,
        instance=instance,
    )


def judged_entry(
    match: Match, item: Submission, answer: Answer, deadline_ns: int | None
) -> log_pb2.LogEntry:
    """Return the entry of a command the arbitration judged, after it judged it.

    ``deadline_ns`` is the deadline that was in force when the command's turn came.
    """
    entry = log_pb2.LogEntry(
        match_id=match.match_id,
        seat=item.seat,
        client_seq=item.client_seq,
        command=item.command,
        arrival_us=since_open_us(match, item.arrival_ns),
        version=match.version,
    )
    if deadline_ns is not None:
        entry.deadline_us = since_open_us(match, deadline_ns)
    if isinstance(answer, Rejection):
        entry.kind = log_pb2.ENTRY_KIND_REFUSED
        entry.reason = answer.reason
        race = race_record(match, item, answer)
        if race is not None:
            entry.race.CopyFrom(race)
        return entry
    is_reveal = item.command.WhichOneof("kind") == "reveal"
    entry.kind = log_pb2.ENTRY_KIND_REVEAL if is_reveal else log_pb2.ENTRY_KIND_ACCEPTED
    entry.seq = answer.seq
    return entry


def race_record(match: Match, item: Submission, refusal: Rejection) -> log_pb2.RaceRecord | None:
    """Return the race ``item`` just lost, with both arrival stamps, or None.

    The referee names the gap in a refusal's metadata only when the command lost a race
    for a claim someone else landed (``Referee._note_race``), and its notice is then the
    match's current ``race``.
    """
    claim = refusal.metadata.get("claim", "")
    landed = match.claims.get(claim)
    notice = match.race
    if "gap_us" not in refusal.metadata or landed is None or notice is None:
        return None
    return log_pb2.RaceRecord(
        claim=claim,
        pile=notice.pile,
        landed_seat=landed.seat,
        landed_card=landed.label,
        landed_arrival_us=since_open_us(match, landed.arrival_ns),
        refused_seat=item.seat,
        refused_card=notice.refused_card,
        refused_arrival_us=since_open_us(match, item.arrival_ns),
        gap_us=notice.gap_us,
    )


def flag_record(match: Match, seat: int, deadline_ns: int, fired_ns: int) -> log_pb2.FlagRecord:
    """Return the figures of a flag: whose time ran out, when, and when the server saw it."""
    deadline_us, fired_us = since_open_us(match, deadline_ns), since_open_us(match, fired_ns)
    return log_pb2.FlagRecord(
        seat=seat, deadline_us=deadline_us, fired_us=fired_us, late_us=fired_us - deadline_us
    )


def flag_entry(match: Match) -> log_pb2.LogEntry:
    """Return the entry of the flag the match was just ended by (``match.flag``)."""
    assert match.flag is not None
    return log_pb2.LogEntry(
        match_id=match.match_id,
        kind=log_pb2.ENTRY_KIND_FLAG,
        seq=match.seq,
        seat=SERVER,
        arrival_us=match.flag.deadline_us,
        deadline_us=match.flag.deadline_us,
        flag=match.flag,
        version=match.version,
    )


def nudge_entry(match: Match, at_ns: int) -> log_pb2.LogEntry:
    """Return the entry of a nudge the server just applied (a lifted gate, a due spit)."""
    return log_pb2.LogEntry(
        match_id=match.match_id,
        kind=log_pb2.ENTRY_KIND_NUDGE,
        seq=match.seq,
        seat=SERVER,
        command=game_pb2.Command(nudge=game_pb2.Nudge()),
        arrival_us=since_open_us(match, at_ns),
        version=match.version,
    )


def closing_entry(match: Match) -> log_pb2.LogEntry:
    """Return the last entry of a match that is over: finished with an outcome, or voided."""
    entry = log_pb2.LogEntry(
        match_id=match.match_id,
        seq=match.seq,
        seat=SERVER,
        arrival_us=since_open_us(match, match.finished_ns or match.opened_ns),
        version=match.version,
    )
    if match.status == arbitration_pb2.STATUS_VOIDED:
        entry.kind = log_pb2.ENTRY_KIND_VOIDED
        entry.void_reason = match.void_reason
    else:
        entry.kind = log_pb2.ENTRY_KIND_FINISHED
        if match.outcome is not None:
            entry.outcome.CopyFrom(match.outcome)
    return entry
