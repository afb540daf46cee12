"""Clocks as the server measured them, the local count-down, and how a match ends."""

from __future__ import annotations

from clients.cli.clocks import SeatTime, count_down, format_ms
from clients.cli.render_common import clock_line, ending_lines, race_line
from games import bid
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from tests.cli.positions import bid_update, clock


def test_the_running_seat_uses_its_grace_first_then_its_bank() -> None:
    view = clock(((10_000, 120_000), (0, 90_000)), running=0)
    assert count_down(view, 8_000) == (SeatTime(2_000, 120_000), SeatTime(0, 90_000))
    assert count_down(view, 13_000) == (SeatTime(0, 117_000), SeatTime(0, 90_000))


def test_the_count_down_stops_at_zero_and_moves_nothing_when_no_clock_runs() -> None:
    running = clock(((1_000, 2_000), (0, 0)), running=0)
    assert count_down(running, 60_000)[0] == SeatTime(0, 0)
    stopped = clock(((10_000, 5_000), (10_000, 5_000)), running=-1)
    assert count_down(stopped, 60_000) == (SeatTime(10_000, 5_000), SeatTime(10_000, 5_000))


def test_times_print_as_minutes_and_seconds_rounded_down() -> None:
    assert [format_ms(ms) for ms in (0, 999, 9_999, 120_000, 61_500, -5)] == [
        "0:00",
        "0:00",
        "0:09",
        "2:00",
        "1:01",
        "0:00",
    ]


def test_the_clock_line_marks_the_running_clock_and_is_absent_without_a_clock() -> None:
    update = bid_update(bid.new_match(bid.Options(), 1), 0)
    update.clock.CopyFrom(clock(((4_000, 100_000), (10_000, 120_000)), running=1))
    assert clock_line(update) == "clock    Ada grace 0:04 bank 1:40   Bea grace 0:10 bank 2:00 ◀"
    update.clock.enabled = False
    assert clock_line(update) is None


def test_a_finished_match_names_the_winner_and_how() -> None:
    update = bid_update(bid.new_match(bid.Options(), 1), 1)
    update.status = arbitration_pb2.STATUS_FINISHED
    update.outcome.CopyFrom(game_pb2.Outcome(winner=1, termination=game_pb2.TERMINATION_TIME))
    assert ending_lines(update, 1) == ["MATCH OVER: You win (on time)."]
    assert ending_lines(update, 0) == ["MATCH OVER: Bea wins (on time)."]


def test_a_voided_match_says_why_and_that_nothing_counts() -> None:
    update = bid_update(bid.new_match(bid.Options(), 1), 0)
    update.status = arbitration_pb2.STATUS_VOIDED
    update.void_reason = "the arbitration lost its clock"
    assert ending_lines(update, 0) == [
        "MATCH VOIDED: the arbitration lost its clock. No result, no rating change."
    ]


def test_a_live_match_has_no_ending_and_a_race_between_others_names_both() -> None:
    update = bid_update(bid.new_match(bid.Options(), 1), 0)
    assert ending_lines(update, 0) == []
    update.race.CopyFrom(
        arbitration_pb2.Race(
            pile=1, landed_seat=0, landed_card="Q♠", refused_seat=1, refused_card="Q♥", gap_us=50
        )
    )
    assert race_line(update, -1) == "race     Ada's Q♠ beat Bea's Q♥ on pile 2 by 0.050 ms"
