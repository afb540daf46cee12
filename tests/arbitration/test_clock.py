"""The match clock against an injected time: the rules page's examples, to the nanosecond."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services.arbitration.clock import BANK_NS, GRACE_NS, Clock, advance, charge, start
from services.arbitration.decision_facts import Seat

S = 1_000_000_000
MS = 1_000_000
NORTH, SOUTH = Seat(0), Seat(1)


def test_a_decision_made_in_8_s_uses_no_bank() -> None:
    clock = start(Clock(), NORTH, 0)
    clock = advance(clock, SOUTH, True, 8 * S)
    assert clock.bank_ns[NORTH] == BANK_NS


def test_a_decision_made_in_13_s_uses_3_s_of_bank() -> None:
    clock = start(Clock(), NORTH, 0)
    clock = advance(clock, SOUTH, True, 13 * S)
    assert clock.bank_ns[NORTH] == BANK_NS - 3 * S


def test_arrival_exactly_at_the_deadline_loses_on_time() -> None:
    clock = start(Clock(), NORTH, 5 * S)
    deadline = 5 * S + GRACE_NS + BANK_NS
    assert clock.deadline_ns() == deadline
    assert not clock.is_in_time(deadline)


def test_arrival_one_microsecond_before_the_deadline_is_accepted() -> None:
    clock = start(Clock(), NORTH, 5 * S)
    deadline = 5 * S + GRACE_NS + BANK_NS
    assert clock.is_in_time(deadline - 1_000)


def test_a_draw_continues_the_turn_without_a_new_grace() -> None:
    clock = start(Clock(), NORTH, 0)
    clock = advance(clock, NORTH, False, 7 * S)  # drew at 7 s: same turn
    assert clock.deadline_ns() == GRACE_NS + BANK_NS
    clock = advance(clock, SOUTH, True, 12 * S)  # placed the drawn tile at 12 s
    assert clock.bank_ns[NORTH] == BANK_NS - 2 * S


def test_a_new_turn_gets_a_new_grace_never_a_new_bank() -> None:
    clock = start(Clock(), NORTH, 0)
    clock = advance(clock, SOUTH, True, 15 * S)  # north used 5 s of bank
    clock = advance(clock, NORTH, True, 16 * S)
    assert clock.deadline_ns() == 16 * S + GRACE_NS + BANK_NS - 5 * S


def test_clocks_are_stopped_at_a_gate() -> None:
    clock = start(Clock(), NORTH, 0)
    clock = advance(clock, None, True, 12 * S)
    assert clock.running is None
    assert clock.deadline_ns() is None
    assert clock.is_in_time(10**15)
    assert clock.bank_ns[NORTH] == BANK_NS - 2 * S


def test_raising_in_the_auction_switches_the_clock() -> None:
    clock = start(Clock(), SOUTH, 0)
    clock = advance(clock, NORTH, True, 3 * S)
    assert clock.running == NORTH
    assert clock.deadline_ns() == 3 * S + GRACE_NS + BANK_NS


def test_remaining_time_shows_grace_first_then_bank() -> None:
    clock = start(Clock(), NORTH, 0)
    assert clock.remaining_ns(NORTH, 4 * S) == (6 * S, BANK_NS)
    assert clock.remaining_ns(NORTH, 14 * S) == (0, BANK_NS - 4 * S)
    assert clock.remaining_ns(SOUTH, 14 * S) == (0, BANK_NS)


@given(st.lists(st.tuples(st.integers(0, 200 * S), st.booleans(), st.booleans()), max_size=40))
def test_banks_never_grow_and_never_go_negative(
    steps: list[tuple[int, bool, bool]],
) -> None:
    clock, now = start(Clock(), NORTH, 0), 0
    for gap, fresh, switch in steps:
        now += gap
        before = clock.bank_ns
        seat = Seat(1 - clock.running) if switch and clock.running is not None else NORTH
        clock = advance(clock, seat, fresh, now)
        assert all(0 <= after <= b for after, b in zip(clock.bank_ns, before, strict=True))
    assert charge(clock, now + MS).running is None
