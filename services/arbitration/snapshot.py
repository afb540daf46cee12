"""A live match to a snapshot and back: everything needed to take it over elsewhere.

The views are not kept: the rules service recomputes them from the state on restore.
"""

from __future__ import annotations

from photofinish.arbitration.v1 import snapshot_pb2
from services.arbitration.clock import Clock
from services.arbitration.decision import decision_from_proto, seat_from_proto, seat_to_proto
from services.arbitration.faults import Exposure, Fault, FaultKind
from services.arbitration.match import Answer, Landing, Match
from services.arbitration.timing import Timing
from services.common.rejection import Rejection, status_code


def to_snapshot(match: Match, owner: str, now_ns: int) -> snapshot_pb2.MatchSnapshot:
    """Return the match as it stands, for the KV store."""
    clock, timing = match.timing.clock, match.timing
    snapshot = snapshot_pb2.MatchSnapshot(
        created=match.created,
        owner=owner,
        saved_ns=now_ns,
        opened_ns=match.opened_ns,
        state=match.state,
        version=match.version,
        seq=match.seq,
        decision=match.decision_proto,
        clock=snapshot_pb2.SnapshotClock(
            bank_ns=list(clock.bank_ns),
            running=seat_to_proto(clock.running),
            turn_started_ns=clock.turn_started_ns,
            grace_ns=clock.grace_ns,
            clocked=timing.clocked,
            hot_seat=timing.hot_seat,
            shown=seat_to_proto(timing.shown),
            handover=seat_to_proto(timing.handover),
        ),
        status=match.status,
        void_reason=match.void_reason,
        last_client_seq=match.last_client_seq,
        claims=[
            snapshot_pb2.SnapshotLanding(
                claim=claim,
                seat=land.seat,
                label=land.label,
                arrival_ns=land.arrival_ns,
                seq=land.seq,
            )
            for claim, land in match.claims.items()
        ],
        exposed_since_ns=-1 if match.exposure.since_ns is None else match.exposure.since_ns,
        exposure_ended_ns=-1 if match.exposure.last_end_ns is None else match.exposure.last_end_ns,
        faults=[
            snapshot_pb2.SnapshotFault(kind=f.kind.value, start_ns=f.start_ns, end_ns=f.end_ns)
            for f in match.faults
        ],
    )
    if match.outcome is not None:
        snapshot.outcome.CopyFrom(match.outcome)
    for seat, kept in match.answers.items():
        for client_seq, answer in kept.items():
            snapshot.answers.append(_answer(seat, client_seq, answer))
    return snapshot


def _answer(seat: int, client_seq: int, answer: Answer) -> snapshot_pb2.SnapshotAnswer:
    if isinstance(answer, Rejection):
        return snapshot_pb2.SnapshotAnswer(
            seat=seat,
            client_seq=client_seq,
            code=answer.code.value[0],
            reason=answer.reason,
            message=answer.message,
            metadata=answer.metadata,
        )
    return snapshot_pb2.SnapshotAnswer(seat=seat, client_seq=client_seq, reply=answer)


def from_snapshot(snapshot: snapshot_pb2.MatchSnapshot) -> Match:
    """Return the match a snapshot describes (without views: fetch them from the rules)."""
    saved = snapshot.clock
    timing = Timing(
        Clock(
            (saved.bank_ns[0], saved.bank_ns[1]),
            seat_from_proto(saved.running),
            saved.turn_started_ns,
            saved.grace_ns,
        ),
        clocked=saved.clocked,
        hot_seat=saved.hot_seat,
        shown=seat_from_proto(saved.shown),
        handover=seat_from_proto(saved.handover),
    )
    match = Match(
        created=snapshot.created,
        opened_ns=snapshot.opened_ns,
        state=snapshot.state,
        version=snapshot.version,
        decision=decision_from_proto(snapshot.decision),
        decision_proto=snapshot.decision,
        timing=timing,
        seq=snapshot.seq,
        status=snapshot.status,
        outcome=snapshot.outcome if snapshot.HasField("outcome") else None,
        last_client_seq=dict(snapshot.last_client_seq),
        claims={
            land.claim: Landing(land.seat, land.label, land.arrival_ns, land.seq)
            for land in snapshot.claims
        },
        exposure=Exposure(
            None if snapshot.exposed_since_ns < 0 else snapshot.exposed_since_ns,
            None if snapshot.exposure_ended_ns < 0 else snapshot.exposure_ended_ns,
        ),
        faults=tuple(Fault(FaultKind(f.kind), f.start_ns, f.end_ns) for f in snapshot.faults),
        void_reason=snapshot.void_reason,
    )
    for kept in snapshot.answers:
        answer: Answer
        if kept.HasField("reply"):
            answer = kept.reply
        else:
            metadata = dict(kept.metadata)
            answer = Rejection(status_code(kept.code), kept.reason, kept.message, metadata)
        match.remember(kept.seat, kept.client_seq, answer)
    return match
