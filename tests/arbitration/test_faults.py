"""When time cannot be trusted: which faults count, and which matches they void."""

from __future__ import annotations

from services.arbitration.faults import (
    Exposure,
    Fault,
    FaultKind,
    Tolerances,
    exposure_after,
    flag_is_tainted,
    measured,
    should_void,
)

MS = 1_000_000
LAG = FaultKind.EVENT_LOOP_LAG


def test_a_stall_within_tolerance_is_not_a_fault() -> None:
    assert measured(LAG, 0, 100 * MS, Tolerances()) is None
    assert measured(LAG, 0, 101 * MS, Tolerances()) == Fault(LAG, 0, 101 * MS)


def test_any_nats_outage_is_a_fault() -> None:
    assert measured(FaultKind.NATS_DISCONNECTED, 0, 1, Tolerances()) is not None


def test_a_fault_during_a_running_clock_voids_a_rated_match_only() -> None:
    exposure = exposure_after(Exposure(), True, 1_000 * MS)
    fault = Fault(LAG, 2_000 * MS, 2_500 * MS)
    assert should_void(True, exposure, fault)
    assert not should_void(False, exposure, fault)


def test_a_fault_while_the_clocks_were_stopped_voids_nothing() -> None:
    exposure = exposure_after(exposure_after(Exposure(), True, 0), False, 900 * MS)
    assert not should_void(True, exposure, Fault(LAG, 1_000 * MS, 1_500 * MS))


def test_a_fault_that_began_before_the_clock_stopped_still_counts() -> None:
    exposure = exposure_after(exposure_after(Exposure(), True, 0), False, 1_200 * MS)
    assert should_void(True, exposure, Fault(LAG, 1_000 * MS, 1_500 * MS))


def test_a_casual_flag_is_tainted_only_by_a_fault_inside_that_turn() -> None:
    fault = Fault(FaultKind.TIMER_LATE, 5_000 * MS, 5_300 * MS)
    assert flag_is_tainted((fault,), 4_000 * MS, 6_000 * MS) == fault
    assert flag_is_tainted((fault,), 5_400 * MS, 8_000 * MS) is None


def test_figures_name_the_fault_and_its_tolerance() -> None:
    fault = Fault(LAG, 0, 512 * MS)
    assert fault.figures(100) == "event_loop_lag of 512.0 ms (tolerance 100 ms)"
