"""Who is still there: a seat of an online match unheard for the limit is queued as away,
heard from again it is queued as back, once each; other modes are never away, and a
match against the computer or on one device whose person is unheard for the abandon
limit is queued to end, once."""

from __future__ import annotations

import pytest

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration import record
from services.arbitration.attendance import Attendance
from services.arbitration.decision_facts import decision_from_proto
from services.arbitration.match import AwayChange, LeftAlone, Match

S = 1_000_000_000
OPENED_NS = 100 * S
ABANDONED_S = 600


def a_match(mode: events_pb2.Mode.ValueType = events_pb2.MODE_ONLINE) -> Match:
    # Against the computer the bot has seat 1; on one device both seats are the person's.
    players = [events_pb2.Player(player_id="p0"), events_pb2.Player(player_id="p1")]
    if mode == events_pb2.MODE_COMPUTER:
        players[1].bot = True
    created = events_pb2.MatchCreated(
        match_id="m1", game=game_pb2.GAME_SPIT, mode=mode, players=players
    )
    header = log_pb2.LogEntry(
        kind=log_pb2.ENTRY_KIND_OPENED,
        created=created,
        decision=game_pb2.Decision(seats=[0, 1]),
        opened_ns=OPENED_NS,
    )
    return record.opened(header)


def queued(match: Match) -> list[AwayChange | LeftAlone]:
    items: list[AwayChange | LeftAlone] = []
    while not match.queue.empty():
        item = match.queue.get_nowait()
        assert isinstance(item, AwayChange | LeftAlone)
        items.append(item)
    return items


def attendance_of(match: Match, clock: Clock) -> Attendance:
    return Attendance(
        lambda: [match],
        lambda _: match,
        away_after_s=30,
        now=clock,
        abandoned_after_s=ABANDONED_S,
    )


class Clock:
    def __init__(self) -> None:
        self.now_ns = OPENED_NS

    def __call__(self) -> int:
        return self.now_ns


def test_a_seat_unheard_for_the_limit_is_queued_away_once() -> None:
    match, clock = a_match(), Clock()
    attendance = Attendance(lambda: [match], lambda _: match, away_after_s=30, now=clock)
    attendance.heard(match, 0, OPENED_NS + 25 * S)
    clock.now_ns = OPENED_NS + 29 * S
    attendance.sweep()
    assert queued(match) == []
    clock.now_ns = OPENED_NS + 30 * S
    attendance.sweep()
    attendance.sweep()  # still queued: not twice
    assert queued(match) == [AwayChange(1, away=True)]
    assert attendance.is_away(match, 1, clock.now_ns) and not attendance.is_away(
        match, 0, clock.now_ns
    )


def test_a_seat_logged_away_and_heard_from_is_queued_back() -> None:
    match, clock = a_match(), Clock()
    attendance = Attendance(lambda: [match], lambda _: match, away_after_s=30, now=clock)
    record.apply(match, log_pb2.LogEntry(kind=log_pb2.ENTRY_KIND_AWAY, seat=1, away=True, seq=1))
    assert match.away == {1} and match.seq == 1
    attendance.heard(match, 0, OPENED_NS + S)  # the present seat: nothing to log
    assert queued(match) == []
    present = arbitration_pb2.SeatsPresent(seats=[arbitration_pb2.SeatRef(match_id="m1", seat=1)])
    attendance.on_presence(present.SerializeToString())
    assert queued(match) == [AwayChange(1, away=False)]


@pytest.mark.parametrize("mode", [events_pb2.MODE_HOTSEAT, events_pb2.MODE_COMPUTER])
def test_only_online_matches_have_seats_away(mode: events_pb2.Mode.ValueType) -> None:
    match, clock = a_match(mode), Clock()
    attendance = attendance_of(match, clock)
    clock.now_ns = OPENED_NS + (ABANDONED_S - 1) * S  # long past the away limit
    attendance.sweep()
    assert queued(match) == []
    assert match.away == frozenset()


def test_an_online_match_is_never_left_alone() -> None:
    match, clock = a_match(), Clock()
    attendance = attendance_of(match, clock)
    clock.now_ns = OPENED_NS + 3600 * S
    attendance.sweep()
    assert all(isinstance(item, AwayChange) for item in queued(match))
    assert not attendance.is_left_alone(match, clock.now_ns)


def test_a_computer_match_whose_person_is_unheard_for_the_limit_is_queued_to_end_once() -> None:
    match, clock = a_match(events_pb2.MODE_COMPUTER), Clock()
    attendance = attendance_of(match, clock)
    attendance.heard(match, 0, OPENED_NS + 10 * S)  # the person's last command
    for second in range(20, ABANDONED_S + 10, 5):  # the bot plays on: it never counts
        attendance.heard(match, 1, OPENED_NS + second * S)
    clock.now_ns = OPENED_NS + (10 + ABANDONED_S - 1) * S
    attendance.sweep()
    assert queued(match) == [] and not attendance.is_left_alone(match, clock.now_ns)
    clock.now_ns = OPENED_NS + (10 + ABANDONED_S) * S
    attendance.sweep()
    attendance.sweep()  # still queued: not twice
    assert queued(match) == [LeftAlone()]
    assert attendance.is_left_alone(match, clock.now_ns)


def test_a_computer_match_never_heard_from_counts_from_its_opening() -> None:
    match, clock = a_match(events_pb2.MODE_COMPUTER), Clock()
    attendance = attendance_of(match, clock)
    clock.now_ns = OPENED_NS + ABANDONED_S * S
    attendance.sweep()
    assert queued(match) == [LeftAlone()]


def test_on_one_device_either_seat_heard_keeps_the_match() -> None:
    match, clock = a_match(events_pb2.MODE_HOTSEAT), Clock()
    attendance = attendance_of(match, clock)
    attendance.heard(match, 1, OPENED_NS + 300 * S)  # seat 0 was never heard from
    clock.now_ns = OPENED_NS + (300 + ABANDONED_S - 1) * S
    attendance.sweep()
    assert queued(match) == []
    clock.now_ns = OPENED_NS + (300 + ABANDONED_S) * S
    attendance.sweep()
    assert queued(match) == [LeftAlone()]


def test_a_person_with_a_stream_open_is_never_left_alone() -> None:
    match, clock = a_match(events_pb2.MODE_COMPUTER), Clock()
    attendance = attendance_of(match, clock)
    present = arbitration_pb2.SeatsPresent(seats=[arbitration_pb2.SeatRef(match_id="m1", seat=0)])
    for _ in range(3 * ABANDONED_S // 5):  # a gateway names the open stream every 5 s
        clock.now_ns += 5 * S
        attendance.on_presence(present.SerializeToString())
        attendance.sweep()
    assert queued(match) == []


def test_a_person_heard_while_the_end_waits_is_no_longer_left_alone() -> None:
    match, clock = a_match(events_pb2.MODE_HOTSEAT), Clock()
    attendance = attendance_of(match, clock)
    clock.now_ns = OPENED_NS + ABANDONED_S * S
    attendance.sweep()
    assert queued(match) == [LeftAlone()]
    attendance.heard(match, 0, clock.now_ns)  # a reload opened a stream
    assert not attendance.is_left_alone(match, clock.now_ns)


def test_a_finished_match_is_not_left_alone() -> None:
    match, clock = a_match(events_pb2.MODE_COMPUTER), Clock()
    attendance = attendance_of(match, clock)
    match.status = arbitration_pb2.STATUS_FINISHED
    clock.now_ns = OPENED_NS + 3600 * S
    attendance.sweep()
    assert queued(match) == [] and not attendance.is_left_alone(match, clock.now_ns)


def test_a_move_is_an_accepted_command_outside_a_gate_and_not_a_claim() -> None:
    match = a_match()
    gated = game_pb2.Decision(seats=[0, 1], gate=game_pb2.GATE_START)
    match.decision = decision_from_proto(gated)
    record.apply(match, log_pb2.LogEntry(kind=log_pb2.ENTRY_KIND_ACCEPTED, seat=0, client_seq=1))
    assert match.moved == frozenset()  # a press at the gate
    match.decision = decision_from_proto(game_pb2.Decision(seats=[0, 1]))
    claim = game_pb2.Command(claim=game_pb2.Claim())
    record.apply(
        match,
        log_pb2.LogEntry(kind=log_pb2.ENTRY_KIND_ACCEPTED, seat=1, client_seq=1, command=claim),
    )
    assert match.moved == frozenset()
    record.apply(match, log_pb2.LogEntry(kind=log_pb2.ENTRY_KIND_ACCEPTED, seat=0, client_seq=2))
    assert match.moved == {0}
