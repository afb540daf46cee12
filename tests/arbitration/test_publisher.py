"""What an update shows of the arbitration's own record: the decision, the clocks, who is
away and how the match ended. The parts that change only with a step are encoded once
and kept (``publisher.Shown``): each update must still show the match as it is now. How
the seats' updates leave (a real nats-server): one message a change, at its turn's end,
with the answers that ride on it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.clock import Clock
from services.arbitration.decision_facts import Decision, Seat
from services.arbitration.match import Match
from services.arbitration.publisher import Publisher, build_update
from services.arbitration.timing import Timing
from services.common.natslink.link import NatsLink
from services.stack.natsd import NatsServer
from tests.waiting import poll_until
from wire import subjects
from wire.updates import read_lead

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


def test_a_spent_clock_is_still_shown_with_the_other_running() -> None:
    match = _match(Timing(Clock((0, 30_000 * MS), Seat(1), STARTED_NS, 10_000 * MS)))
    clock = build_update(match, 0, STARTED_NS + 15_000 * MS).clock
    assert (clock.enabled, clock.running) == (True, 1)
    assert [(s.grace_ms, s.bank_ms) for s in clock.seats] == [(0, 0), (0, 25_000)]


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


@pytest.fixture
async def links(nats_server: NatsServer) -> AsyncIterator[tuple[NatsLink, list[bytes]]]:
    """The arbitration's link, and what the match's seats' subject carried."""
    link = await NatsLink.connect(nats_server.url, "arbitration")
    heard: list[bytes] = []
    link.subscribe(subjects.match_seats("shown-1"), lambda message: heard.append(message.data))
    await link.flush()
    yield link, heard
    await link.close()


def _shown() -> Match:
    match = _match(_clocked())
    match.perspectives = {0: b"", 1: b""}
    return match


def _taken(seq: int) -> arbitration_pb2.SubmitAnswer:
    return arbitration_pb2.SubmitAnswer(index=0, reply=arbitration_pb2.SubmitReply(seq=seq))


async def _heard(link: NatsLink, heard: list[bytes], count: int) -> list[Any]:
    await asyncio.sleep(0)  # the turn's end: its updates leave
    await link.flush()
    await poll_until("the updates arrive", lambda: len(heard) >= count)
    return [arbitration_pb2.SeatUpdates.FromString(data) for data in heard]


async def test_an_answer_rides_with_the_seats_update_of_its_turn(
    links: tuple[NatsLink, list[bytes]],
) -> None:
    link, heard = links
    publisher = Publisher(link, cast(Any, None), lambda: STARTED_NS)
    match = _shown()
    publisher.updates(match)
    assert publisher.answer_with_update("shown-1", "_INBOX_gateway.a.3", _taken(4))
    assert not publisher.answer_with_update("another", "_INBOX_gateway.a.3", _taken(5))
    (seats,) = await _heard(link, heard, 1)
    assert [arbitration_pb2.MatchUpdate.FromString(u).seat for u in seats.updates] == [0, 1]
    assert [(a.reply_subject, a.answer.reply.seq) for a in seats.answers] == [
        ("_INBOX_gateway.a.3", 4)
    ]
    # The turn over, its update gone: a later answer travels on its own.
    assert not publisher.answer_with_update("shown-1", "_INBOX_gateway.a.4", _taken(6))


async def test_two_changes_in_a_turn_leave_in_order_and_a_timers_at_once(
    links: tuple[NatsLink, list[bytes]],
) -> None:
    link, heard = links
    publisher = Publisher(link, cast(Any, None), lambda: STARTED_NS)
    match = _shown()
    match.seq = 1
    publisher.updates(match)
    match.seq = 2
    publisher.updates(match)
    with publisher.at_once():  # a timer's item: its update leaves now, nothing rides on it
        match.seq = 3
        publisher.updates(match)
        assert not publisher.answer_with_update("shown-1", "_INBOX_gateway.a.5", _taken(7))
    updates = await _heard(link, heard, 3)
    assert [read_lead(u.updates[0]).seq for u in updates] == [1, 2, 3]  # type: ignore[union-attr]
