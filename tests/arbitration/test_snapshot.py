"""A snapshot carries everything a takeover needs: state, order, clocks, answers, faults."""

from __future__ import annotations

import grpc

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.clock import Clock
from services.arbitration.decision import Decision, Seat
from services.arbitration.faults import Exposure, Fault, FaultKind
from services.arbitration.match import ANSWERS_KEPT_PER_SEAT, Landing, Match
from services.arbitration.snapshot import from_snapshot, to_snapshot
from services.arbitration.timing import Timing
from services.common.rejection import Rejection


def a_match() -> Match:
    created = events_pb2.MatchCreated(
        match_id="m1", game=game_pb2.GAME_BID, rated=True, mode=events_pb2.MODE_ONLINE, seed=7
    )
    match = Match(
        created=created,
        opened_ns=1_000,
        state=b"\x01state",
        version=12,
        decision=Decision(frozenset({Seat(1)}), True),
        decision_proto=game_pb2.Decision(seats=[1], fresh=True),
        timing=Timing(
            Clock((90_000, 110_000), Seat(1), 5_000, 10_000), hot_seat=True, shown=Seat(1)
        ),
        seq=9,
        last_client_seq={0: 4, 1: 5},
        claims={"pile:0": Landing(0, "8♠", 4_000, 7)},
        exposure=Exposure(5_000, 3_000),
        faults=(Fault(FaultKind.TIMER_LATE, 10, 20),),
    )
    match.remember(0, 4, arbitration_pb2.SubmitReply(seq=9, arrival_us=4))
    match.remember(
        1,
        5,
        Rejection(
            grpc.StatusCode.FAILED_PRECONDITION, "pile_top_changed", "too slow", {"gap_us": "12"}
        ),
    )
    return match


def test_a_match_survives_a_snapshot_round_trip() -> None:
    original = a_match()
    restored = from_snapshot(to_snapshot(original, "arbitration-1", 6_000))
    for name in (
        "created",
        "opened_ns",
        "state",
        "version",
        "decision",
        "decision_proto",
        "timing",
        "seq",
        "status",
        "outcome",
        "last_client_seq",
        "claims",
        "exposure",
        "faults",
    ):
        assert getattr(restored, name) == getattr(original, name), name
    assert restored.answer_to(0, 4) == original.answer_to(0, 4) is not None
    refusal = restored.answer_to(1, 5)
    assert isinstance(refusal, Rejection)
    assert (refusal.code, refusal.reason, refusal.metadata) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "pile_top_changed",
        {"gap_us": "12"},
    )


def test_a_snapshot_names_its_owner_and_when_it_was_saved() -> None:
    snapshot = to_snapshot(a_match(), "arbitration-1", 6_000)
    assert (snapshot.owner, snapshot.saved_ns) == ("arbitration-1", 6_000)


def test_only_the_latest_answers_per_seat_are_kept_and_saved() -> None:
    match = a_match()
    for client_seq in range(10, 10 + ANSWERS_KEPT_PER_SEAT + 8):
        match.remember(1, client_seq, arbitration_pb2.SubmitReply(seq=client_seq))
    latest = list(range(18, 10 + ANSWERS_KEPT_PER_SEAT + 8))
    assert list(match.answers[1]) == latest  # seat 1's oldest (5, then 10 to 17) dropped
    assert match.answer_to(1, 17) is None and match.answer_to(0, 4) is not None
    restored = from_snapshot(to_snapshot(match, "arbitration-1", 6_000))
    assert {seat: list(kept) for seat, kept in restored.answers.items()} == {0: [4], 1: latest}
    assert restored.answer_to(1, latest[-1]) == arbitration_pb2.SubmitReply(seq=latest[-1])
