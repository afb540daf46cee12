"""The clock follows the engine's decisions; a shared device stops it while changing hands."""

from __future__ import annotations

from services.arbitration.clock import BANK_NS, GRACE_NS
from services.arbitration.decision_facts import Decision, Lift, Seat
from services.arbitration.timing import Timing, after_reveal, after_step

S = 1_000_000_000
NORTH, SOUTH = Seat(0), Seat(1)


def turn(seat: Seat, fresh: bool = True) -> Decision:
    return Decision(frozenset({seat}), fresh)


def test_a_gate_stops_both_clocks() -> None:
    timing = after_step(Timing(), turn(NORTH), 0)
    timing = after_step(
        timing,
        Decision(frozenset({NORTH, SOUTH}), False, gated=True, lift=Lift.AFTER_GATE_TIMEOUT),
        11 * S,
    )
    assert timing.deadline_ns() is None
    assert timing.clock.bank_ns[NORTH] == BANK_NS - 1 * S


def test_a_draw_keeps_the_turns_deadline() -> None:
    timing = after_step(Timing(), turn(NORTH), 0)
    timing = after_step(timing, turn(NORTH, fresh=False), 6 * S)
    assert timing.deadline_ns() == GRACE_NS + BANK_NS


def test_hot_seat_hand_over_stops_the_clock_until_the_reveal() -> None:
    timing = after_reveal(Timing(hot_seat=True), NORTH, 0)
    timing = after_step(timing, turn(SOUTH), 4 * S)
    assert timing.handover == SOUTH
    assert timing.deadline_ns() is None
    timing = after_reveal(timing, SOUTH, 30 * S)
    assert timing.deadline_ns() == 30 * S + GRACE_NS + BANK_NS
    assert timing.clock.bank_ns == (BANK_NS, BANK_NS)


def test_hot_seat_needs_a_reveal_after_every_gate() -> None:
    timing = Timing(hot_seat=True)
    timing = after_step(timing, turn(NORTH), 0)
    assert timing.handover == NORTH


def test_games_without_a_match_clock_never_run_one() -> None:
    timing = after_step(Timing(clocked=False), turn(NORTH), 0)
    assert timing.deadline_ns() is None
    assert timing.is_in_time(10**18)
