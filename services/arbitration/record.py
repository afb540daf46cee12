"""A match's record changes by its log entries, and only by them: live and in a takeover.

The match's worker decides an entry, the log stores it, and only then does ``apply`` change the
match by it, so nothing is shown that the log could not give back. A takeover reads the
stored entries and applies them in order to the header's match (``rebuilt``): the same
function, the same record, whichever instance runs the match and however often it moved.
What the log does not hold is rebuilt elsewhere: the views come from the rules service,
which restores the state from the same entries (``restoring``).
"""

from __future__ import annotations

from collections.abc import Sequence

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from services.arbitration.attendance import person_seats
from services.arbitration.clock import Clock
from services.arbitration.decision_facts import Seat, decision_from_proto
from services.arbitration.faults import Fault, FaultKind, exposure_after
from services.arbitration.match import Landing, Match
from services.arbitration.timing import Timing, after_reveal, after_step
from services.common.rejection import from_refusal
from services.common.replies import Answer

NS_PER_MS = 1_000_000
_STEPS = frozenset({log_pb2.ENTRY_KIND_ACCEPTED, log_pb2.ENTRY_KIND_FLAG, log_pb2.ENTRY_KIND_NUDGE})
_ENDS = frozenset({log_pb2.ENTRY_KIND_FINISHED, log_pb2.ENTRY_KIND_VOIDED})


def opened(header: log_pb2.LogEntry) -> Match:
    """Return the match an OPENED entry describes, at its first decision."""
    bank_ns, grace_ns = header.bank_ms * NS_PER_MS, header.grace_ms * NS_PER_MS
    decision = decision_from_proto(header.decision)
    timing = Timing(
        Clock((bank_ns, bank_ns), None, 0, grace_ns),
        clocked=header.clocked,
        hot_seat=header.created.mode == events_pb2.MODE_HOTSEAT,
    )
    match = Match(
        created=header.created,
        opened_ns=header.opened_ns,
        version=header.version,
        decision=decision,
        decision_proto=header.decision,
        timing=after_step(timing, decision, header.opened_ns),
        state_sha256=header.state_sha256,
        person_seats=person_seats(header.created),
    )
    match.exposure = exposure_after(match.exposure, match.is_exposed(), header.opened_ns)
    return match


def rebuilt(entries: Sequence[log_pb2.LogEntry]) -> Match | None:
    """Return the match its stored entries describe (None: the log has no header)."""
    if not entries or entries[0].kind != log_pb2.ENTRY_KIND_OPENED:
        return None
    match = opened(entries[0])
    for entry in entries[1:]:
        apply(match, entry)
    return match


def apply(match: Match, entry: log_pb2.LogEntry, now_ns: int | None = None) -> None:
    """Change ``match`` as ``entry`` says.

    ``now_ns`` is when the match's worker made the entry (live): a match ends then. Read back
    from the log, it ends at the entry's own stamp.
    """
    kind = entry.kind
    if kind == log_pb2.ENTRY_KIND_COMMAND:
        return  # not judged yet: its judged entry changes the match, in its place
    at_ns = match.opened_ns + entry.stamp_ns
    if kind == log_pb2.ENTRY_KIND_ACCEPTED and entry.client_seq != 0:
        match.accepted[entry.seat] = match.accepted.get(entry.seat, 0) + 1
    if kind == log_pb2.ENTRY_KIND_ACCEPTED and _is_a_move(match, entry):
        match.moved = match.moved | {entry.seat}
    if kind in _STEPS:
        _stepped(match, entry, at_ns, at_ns if now_ns is None else now_ns)
    elif kind == log_pb2.ENTRY_KIND_REVEAL:
        match.timing = after_reveal(match.timing, Seat(entry.seat), at_ns)
        match.seq = entry.seq
    elif kind == log_pb2.ENTRY_KIND_AWAY:
        match.away = match.away | {entry.seat} if entry.away else match.away - {entry.seat}
        match.seq = entry.seq
    elif kind == log_pb2.ENTRY_KIND_REFUSED:
        match.refusals[entry.seat] = match.refusals.get(entry.seat, 0) + 1
        if entry.HasField("race"):
            match.race = _race_notice(match, entry.race)
    elif kind == log_pb2.ENTRY_KIND_FAULT:
        record = entry.fault
        fault = Fault(
            FaultKind(record.kind),
            match.opened_ns + record.start_ns,
            match.opened_ns + record.end_ns,
        )
        match.faults = (*match.faults, fault)
    elif kind == log_pb2.ENTRY_KIND_VOIDED:
        match.status = arbitration_pb2.STATUS_VOIDED
        match.void_reason = entry.void_reason
        match.void_kind = entry.fault.kind or entry.reason  # a fault's kind, or the reason
        match.finished_ns = at_ns
        match.seq = entry.seq
    if kind in _ENDS:
        match.closed = True
    _answered(match, entry)
    match.exposure = exposure_after(match.exposure, match.is_exposed(), at_ns)


def unlogged(match: Match, entry: log_pb2.LogEntry) -> None:
    """Keep the answer of a refusal the log leaves out (matchlog/bounds.py), and count it.

    A refusal changes nothing else, so the match is the same whether it is stored or not.
    """
    match.not_logged[entry.seat] = match.not_logged.get(entry.seat, 0) + 1
    _answered(match, entry)


def _is_a_move(match: Match, entry: log_pb2.LogEntry) -> bool:
    """Return whether an accepted entry is a player's move: not a press at a gate (Ready),
    not a claim. A match the away player never moved in is aborted on a claim."""
    return (
        entry.client_seq != 0
        and not match.decision.gated
        and entry.command.WhichOneof("kind") != "claim"
    )


def _stepped(match: Match, entry: log_pb2.LogEntry, at_ns: int, now_ns: int) -> None:
    match.seq = entry.seq
    match.version = entry.version
    match.state_sha256 = entry.state_sha256
    match.decision_proto = entry.decision
    match.decision = decision_from_proto(entry.decision)
    match.timing = after_step(match.timing, match.decision, at_ns)
    match.race = None
    if entry.HasField("landing"):
        landing = entry.landing
        match.claims[landing.claim] = Landing(entry.seat, landing.label, at_ns, entry.seq)
    if entry.HasField("flag"):
        match.flag = entry.flag
    if entry.HasField("outcome"):
        match.outcome = entry.outcome
        match.status = arbitration_pb2.STATUS_FINISHED
        match.finished_ns = now_ns


def _race_notice(match: Match, race: log_pb2.RaceRecord) -> arbitration_pb2.Race:
    """Return the notice both players see of a race ``race`` records."""
    landed = match.claims.get(race.claim)
    return arbitration_pb2.Race(
        pile=race.pile,
        claim=race.claim,
        landed_seq=0 if landed is None else landed.seq,
        landed_seat=race.landed_seat,
        landed_card=race.landed_card,
        refused_seat=race.refused_seat,
        refused_card=race.refused_card,
        gap_us=race.gap_us,
    )


def _answered(match: Match, entry: log_pb2.LogEntry) -> None:
    """Keep the answer a player's command got, for its retries."""
    if entry.client_seq == 0:
        return  # the server's own entry
    answer: Answer
    if entry.kind == log_pb2.ENTRY_KIND_REFUSED:
        answer = from_refusal(entry.refusal)
    else:
        answer = arbitration_pb2.SubmitReply(seq=entry.seq, arrival_us=entry.arrival_us)
    seat = entry.seat
    match.last_client_seq[seat] = max(match.last_client_seq.get(seat, 0), entry.client_seq)
    match.remember(seat, entry.client_seq, answer)
