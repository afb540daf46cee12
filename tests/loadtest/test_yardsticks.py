"""The stack's ratio to the floor: as measured, and with each window read against its gateway."""

from __future__ import annotations

import pytest

from bench.floor.run import Floor
from bench.stack.yardsticks import StackCost, ratio_lines


def floor(total_s: float, gateway_s: float) -> Floor:
    """A design floor of 1,000 commands whose processes took ``total_s`` CPU seconds."""
    cpu = {"gateway": gateway_s, "stamper": (total_s - gateway_s) / 2}
    cpu["judge"] = total_s - sum(cpu.values())
    return Floor(cpu=cpu, commands=1000, wall_s=10.0, shape="design")


def ratios(lines: list[str]) -> list[float]:
    return [float(line.split("=")[1].split("×")[0]) for line in lines if "× the floor" in line]


def test_a_slower_floor_window_lowers_the_ratio_and_the_gateway_reading_takes_it_out() -> None:
    stack = StackCost(ms_per_accepted=1.6, gateway_ms_per_command=0.4)
    same_speed = [floor(0.8, 0.4), floor(0.8, 0.4)]
    slower_floor = [floor(1.0, 0.5), floor(1.0, 0.5)]  # every floor process 25 % slower
    assert ratios(ratio_lines(stack, same_speed, 5.0)) == [2.0, 2.0]
    as_measured, read_by_gateway = ratios(ratio_lines(stack, slower_floor, 5.0))
    assert as_measured == pytest.approx(1.6)
    assert read_by_gateway == pytest.approx(2.0)


def test_without_a_floor_only_the_cost_and_the_engine_steps_are_given() -> None:
    lines = ratio_lines(StackCost(1.5, 0.3), [], 5.0)
    assert lines[0].endswith("1.500 ms")
    assert lines[1] == "  = 300 engine steps (the Spit engine's median step: 5.0 µs)"
    assert len(lines) == 2
