"""The arbitration log's entries, built from what the match's worker decided. Pure: stamps
are passed in.

One entry per thing the arbitration decided (docs/arbitration-log.md): the header when a
match opens, each command it judged (accepted, refused, a hot-seat reveal), each flag and
nudge it made, each timing fault that touched the match, a takeover, and the end. An
entry holds everything the arbitration's record of the match changes by
(``services/arbitration/record.py`` applies it): the stamps (µs since the match opened
for readers, ns for the clocks), the decision the rules gave, the claim a command
landed, the answer a player got. Never a view: commands are what the players sent.
"""

from __future__ import annotations

from photofinish.arbitration.v1 import log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration.faults import Fault
from services.arbitration.match import Match, Submission
from services.common.rejection import Rejection

SERVER = -1  # the seat of an entry the server made itself
ABORTED = "aborted"  # a void's kind when a claim aborted the match (no fault)
LOG_FULL = "log_full"  # a void's kind when the match's log had room for nothing more
# A void's kind when the person of a match against the computer or on one device was not
# heard from for the abandon limit (services/arbitration/attendance.py).
ABANDONED = "abandoned"

# Entries after which the state may differ: they carry its hash.
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


def _entry(
    match: Match, kind: log_pb2.EntryKind.ValueType, seat: int, at_ns: int
) -> log_pb2.LogEntry:
    return log_pb2.LogEntry(
        match_id=match.match_id,
        kind=kind,
        seat=seat,
        arrival_us=(at_ns - match.opened_ns) // 1000,
        stamp_ns=at_ns - match.opened_ns,
        version=match.version,
        seq=match.seq,
    )


def opened_entry(
    created: events_pb2.MatchCreated,
    step: rules_pb2.StepReply,
    opened_ns: int,
    bank_ms: int,
    grace_ms: int,
    instance: str,
) -> log_pb2.LogEntry:
    """Return the header: the match as created and dealt, so the log replays on its own."""
    return log_pb2.LogEntry(
        match_id=created.match_id,
        kind=log_pb2.ENTRY_KIND_OPENED,
        seat=SERVER,
        version=step.version,
        created=created,
        clocked=step.clocked,
        bank_ms=bank_ms if step.clocked else 0,
        grace_ms=grace_ms if step.clocked else 0,
        instance=instance,
        decision=step.decision,
        opened_ns=opened_ns,
        state_sha256=step.state_sha256,
    )


def _stepped(entry: log_pb2.LogEntry, step: rules_pb2.StepReply) -> log_pb2.LogEntry:
    """Return ``entry`` with the rules step it took: version, decision, hash, outcome."""
    entry.seq += 1
    entry.version = step.version
    entry.decision.CopyFrom(step.decision)
    entry.state_sha256 = step.state_sha256
    if step.HasField("outcome"):
        entry.outcome.CopyFrom(step.outcome)
    return entry


def _judged(
    entry: log_pb2.LogEntry, item: Submission, deadline_ns: int | None, match: Match
) -> log_pb2.LogEntry:
    entry.client_seq = item.client_seq
    entry.command.CopyFrom(item.command)
    if deadline_ns is not None:
        entry.deadline_us = since_open_us(match, deadline_ns)
    return entry


def accepted_entry(
    match: Match, item: Submission, step: rules_pb2.StepReply, deadline_ns: int | None
) -> log_pb2.LogEntry:
    """Return the entry of a player's command the rules applied.

    ``deadline_ns`` is the deadline that was in force when the command's turn came.
    """
    entry = _entry(match, log_pb2.ENTRY_KIND_ACCEPTED, item.seat, item.arrival_ns)
    entry = _stepped(_judged(entry, item, deadline_ns, match), step)
    if step.claim:
        entry.landing.CopyFrom(
            log_pb2.LandingRecord(claim=step.claim, slot=step.claim_slot, label=step.claim_label)
        )
    return entry


def command_entry(match: Match, item: Submission, deadline_ns: int | None) -> log_pb2.LogEntry:
    """Return the entry of a player's command stored before the rules judge it: its stamps,
    the deadline in force, and the state version the rules are to apply it to."""
    entry = _entry(match, log_pb2.ENTRY_KIND_COMMAND, item.seat, item.arrival_ns)
    return _judged(entry, item, deadline_ns, match)


def reveal_entry(match: Match, item: Submission, deadline_ns: int | None) -> log_pb2.LogEntry:
    """Return the entry of a hot-seat reveal: the revealing seat's clock starts."""
    entry = _entry(match, log_pb2.ENTRY_KIND_REVEAL, item.seat, item.arrival_ns)
    entry.seq += 1
    return _judged(entry, item, deadline_ns, match)


def refused_entry(
    match: Match,
    item: Submission,
    refusal: Rejection,
    deadline_ns: int | None,
    race: log_pb2.RaceRecord | None = None,
) -> log_pb2.LogEntry:
    """Return the entry of a refused command: the answer the player got, and the race it
    lost, if it lost one. A refusal changes nothing, so its ``seq`` is 0."""
    entry = _entry(match, log_pb2.ENTRY_KIND_REFUSED, item.seat, item.arrival_ns)
    entry = _judged(entry, item, deadline_ns, match)
    entry.seq = 0
    entry.reason = refusal.reason
    entry.refusal.CopyFrom(refusal.to_refusal())
    if race is not None:
        entry.race.CopyFrom(race)
    return entry


def race_record(match: Match, item: Submission, refusal: Rejection) -> log_pb2.RaceRecord | None:
    """Return the race ``item`` lost, with both arrival stamps, or None when it lost none.

    The rules say a refusal lost a race for a claim (``lost_race``); the race is against
    the accepted command that last landed that claim, if another seat's.
    """
    claim = refusal.metadata.get("claim", "")
    landed = match.claims.get(claim)
    lost = refusal.metadata.get("lost_race") == "true"
    if not lost or landed is None or landed.seat == item.seat:
        return None
    slot = refusal.metadata.get("claim_slot", "")
    return log_pb2.RaceRecord(
        claim=claim,
        pile=int(slot) if slot.isdigit() else -1,
        landed_seat=landed.seat,
        landed_card=landed.label,
        landed_arrival_us=since_open_us(match, landed.arrival_ns),
        refused_seat=item.seat,
        refused_card=refusal.metadata.get("label", ""),
        refused_arrival_us=since_open_us(match, item.arrival_ns),
        gap_us=(item.arrival_ns - landed.arrival_ns) // 1000,
    )


def flag_record(match: Match, seat: int, deadline_ns: int, fired_ns: int) -> log_pb2.FlagRecord:
    """Return the figures of a flag: whose time ran out, when, and when the server saw it."""
    deadline_us, fired_us = since_open_us(match, deadline_ns), since_open_us(match, fired_ns)
    return log_pb2.FlagRecord(
        seat=seat, deadline_us=deadline_us, fired_us=fired_us, late_us=fired_us - deadline_us
    )


def flag_entry(
    match: Match, step: rules_pb2.StepReply, flag: log_pb2.FlagRecord, deadline_ns: int
) -> log_pb2.LogEntry:
    """Return the entry of the flag that ends the match: the step counts at the deadline."""
    entry = _stepped(_entry(match, log_pb2.ENTRY_KIND_FLAG, SERVER, deadline_ns), step)
    entry.deadline_us = entry.arrival_us
    entry.flag.CopyFrom(flag)
    return entry


def nudge_entry(match: Match, step: rules_pb2.StepReply, at_ns: int) -> log_pb2.LogEntry:
    """Return the entry of a nudge the server applied (a lifted gate, a due spit)."""
    entry = _stepped(_entry(match, log_pb2.ENTRY_KIND_NUDGE, SERVER, at_ns), step)
    entry.command.CopyFrom(game_pb2.Command(nudge=game_pb2.Nudge()))
    return entry


def away_entry(
    match: Match, seat: int, away: bool, last_seen_ns: int, at_ns: int
) -> log_pb2.LogEntry:
    """Return the entry of a seat of an online match going away, or coming back."""
    entry = _entry(match, log_pb2.ENTRY_KIND_AWAY, seat, at_ns)
    entry.seq += 1
    entry.away = away
    entry.last_seen_us = since_open_us(match, last_seen_ns)
    return entry


def aborted_entry(
    match: Match, item: Submission, void_reason: str, deadline_ns: int | None
) -> log_pb2.LogEntry:
    """Return the last entry of a match a player's Claim aborted: no result, no rating
    (the away opponent never made a move)."""
    entry = _entry(match, log_pb2.ENTRY_KIND_VOIDED, item.seat, item.arrival_ns)
    entry = _judged(entry, item, deadline_ns, match)
    entry.seq += 1
    entry.reason = ABORTED
    entry.void_reason = void_reason
    entry.state_sha256 = match.state_sha256
    return _closing(match, entry)


def fault_entry(match: Match, fault: Fault, at_ns: int) -> log_pb2.LogEntry:
    """Return the entry of a timing fault that overlapped the match's exposure."""
    entry = _entry(match, log_pb2.ENTRY_KIND_FAULT, SERVER, at_ns)
    entry.fault.CopyFrom(_fault_record(match, fault))
    return entry


def _fault_record(match: Match, fault: Fault) -> log_pb2.FaultRecord:
    return log_pb2.FaultRecord(
        kind=fault.kind.value,
        start_ns=fault.start_ns - match.opened_ns,
        end_ns=fault.end_ns - match.opened_ns,
    )


def taken_over_entry(match: Match, instance: str, at_ns: int) -> log_pb2.LogEntry:
    """Return the entry of a takeover: ``instance`` runs the match from now on."""
    entry = _entry(match, log_pb2.ENTRY_KIND_TAKEN_OVER, SERVER, at_ns)
    entry.instance = instance
    return entry


def finished_entry(match: Match, at_ns: int) -> log_pb2.LogEntry:
    """Return the last entry of a match that ended with an outcome."""
    entry = _entry(match, log_pb2.ENTRY_KIND_FINISHED, SERVER, at_ns)
    entry.state_sha256 = match.state_sha256
    if match.outcome is not None:
        entry.outcome.CopyFrom(match.outcome)
    return _closing(match, entry)


def voided_entry(match: Match, fault: Fault, void_reason: str, at_ns: int) -> log_pb2.LogEntry:
    """Return the last entry of a match voided because ``fault`` made its time untrustworthy."""
    entry = _entry(match, log_pb2.ENTRY_KIND_VOIDED, SERVER, at_ns)
    entry.seq += 1
    entry.void_reason = void_reason
    entry.fault.CopyFrom(_fault_record(match, fault))
    entry.state_sha256 = match.state_sha256
    return _closing(match, entry)


def full_entry(match: Match, at_ns: int) -> log_pb2.LogEntry:
    """Return the last entry of a match whose log has room for nothing more than its end
    (matchlog/bounds.py): no result, no rating."""
    entry = _entry(match, log_pb2.ENTRY_KIND_VOIDED, SERVER, at_ns)
    entry.seq += 1
    entry.reason = LOG_FULL
    entry.void_reason = f"{LOG_FULL}: the match's log holds as many entries as a match keeps"
    entry.state_sha256 = match.state_sha256
    return _closing(match, entry)


def abandoned_entry(
    match: Match, last_seen_ns: int, limit_s: float, at_ns: int
) -> log_pb2.LogEntry:
    """Return the last entry of a match against the computer or on one device that its
    person left alone (nothing heard from them since ``last_seen_ns``): no result."""
    entry = _entry(match, log_pb2.ENTRY_KIND_VOIDED, SERVER, at_ns)
    entry.seq += 1
    entry.reason = ABANDONED
    entry.void_reason = f"{ABANDONED}: nobody played or watched the match for {limit_s:g} s"
    entry.last_seen_us = since_open_us(match, last_seen_ns)
    entry.state_sha256 = match.state_sha256
    return _closing(match, entry)


def _closing(match: Match, entry: log_pb2.LogEntry) -> log_pb2.LogEntry:
    """Return the end ``entry`` with the count of each seat's refusals the log left out."""
    if match.not_logged:
        seats = range(len(match.created.players))
        entry.refusals_not_logged.extend(match.not_logged.get(seat, 0) for seat in seats)
    return entry
