"""What an update shows of the arbitration's own record: the decision, the clocks, who is
away and how the match ended. The parts that change only with a step are encoded once
and kept (``publisher.Shown``): each update must still show the match as it is now."""

from __future__ import annotations

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.clock import Clock
from services.arbitration.decision_facts import Decision, Seat
from services.arbitration.match import Match
from services.arbitration.publisher import build_update
from services.arbitration.timing import Timing

MS = 1_000_000
STARTED_NS = 1_000 * MS


def _match(timing: Timing) -> Match:
    return Match(
        created=events_pb2.MatchCreated(match_id="shown-1", game=game_pb2.GAME_BID),
        opened_ns=0,
        version=3,
        decision=Decision(frozenset({Seat(0)}), fresh=True),
        decision_proto=game_pb2.Decision(seats=[0], fresh=True),
        timing=timing,
    )


def _clocked() -> Timing:
    return Timing(Clock((120_000 * MS, 90_000 * MS), Seat(0), STARTED_NS, 10_000 * MS))


def test_an_update_shows_the_decision_the_match_is_at_each_time() -> None:
    match = _match(_clocked())
    assert build_update(match, 0, STARTED_NS).decision == game_pb2.Decision(seats=[0], fresh=True)
    match.decision_proto = game_pb2.Decision(seats=[1], fresh=True)  # the next step's
    assert build_update(match, 0, STARTED_NS).decision.seats == [1]


def test_a_running_clock_is_read_as_each_update_leaves() -> None:
    match = _match(_clocked())
    first = build_update(match, 1, STARTED_NS + 4_000 * MS).clock
    later = build_update(match, 1, STARTED_NS + 12_500 * MS).clock
    assert (first.enabled, first.running) == (True, 0)
    assert (first.seats[0].grace_ms, first.seats[0].bank_ms) == (6_000, 120_000)
    assert (later.seats[0].grace_ms, later.seats[0].bank_ms) == (0, 117_500)
    assert (later.seats[1].grace_ms, later.seats[1].bank_ms) == (0, 90_000)


def test_a_game_without_a_clock_shows_none_running() -> None:
    match = _match(Timing(Clock((0, 0), None, 0, 0), clocked=False))
    for now_ns in (STARTED_NS, STARTED_NS + 60_000 * MS):
        clock = build_update(match, 0, now_ns).clock
        assert (clock.enabled, clock.running) == (False, -1)
        assert [(s.grace_ms, s.bank_ms) for s in clock.seats] == [(0, 0), (0, 0)]


def test_an_update_shows_who_is_away_and_how_the_match_ended() -> None:
    match = _match(_clocked())
    quiet = build_update(match, 0, STARTED_NS)
    assert not quiet.away_seats and not quiet.HasField("outcome") and not quiet.void_kind
    match.away = frozenset({1})
    match.moved = frozenset({0})
    away = build_update(match, 0, STARTED_NS)
    assert (list(away.away_seats), away.claim_aborts) == ([1], True)
    match.away = frozenset()
    match.outcome = game_pb2.Outcome(winner=0, termination=game_pb2.TERMINATION_TIME)
    match.flag = log_pb2.FlagRecord(seat=1)
    match.status = arbitration_pb2.STATUS_FINISHED
    ended = build_update(match, 0, STARTED_NS)
    assert ended.outcome.winner == 0 and ended.flag.seat == 1 and not ended.away_seats
    match.void_reason, match.void_kind = "the server stalled", "event_loop_lag"
    assert build_update(match, 0, STARTED_NS).void_kind == "event_loop_lag"


def test_a_shared_device_waiting_to_change_hands_shows_the_hand_over() -> None:
    timing = Timing(Clock(), hot_seat=True, handover=Seat(1))
    decision = build_update(_match(timing), 0, STARTED_NS).decision
    assert (list(decision.seats), decision.gate) == ([1], game_pb2.GATE_HANDOVER)
