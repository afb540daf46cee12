"""What the stack's CPU per command is measured against in the same run: the floor and the
engine's own step.

Absolute times move with the machine (the same commit costs twice as much on a slow
day); a ratio measured in the same run moves much less, and read against each window's
gateway less again. The **floor** is a relay built from the
stack's own parts (``bench.floor``: the gateway, one NATS hop, the update out on both
seats' streams; no game, no log) at the same load; the **engine step** is the Spit
engine's median ``apply``, in this process, on matches its bots play.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from bench.engines import record, time_applies
from bench.floor.run import Floor
from games.registry import SPIT

YARDSTICK_MATCHES = 12  # Spit bot matches timed for the engine step (about a second)


@dataclass(frozen=True, slots=True)
class StackCost:
    """What a command cost the stack over its window: every server process's CPU per
    accepted command, and the gateway's per command sent (accepted or refused)."""

    ms_per_accepted: float
    gateway_ms_per_command: float


def spit_step_us() -> float:
    """Return the Spit engine's median step, µs, measured now on this machine."""
    samples = time_applies(SPIT, record(SPIT, YARDSTICK_MATCHES))
    return statistics.median(samples) / 1000


def ratio_lines(stack: StackCost, floors: list[Floor], step_us: float) -> list[str]:
    """Return the stack's CPU per accepted command as multiples of the floor and the step.

    The floor is measured before the stack and again after it: the machine's speed drifts
    within a run, and the ratio is taken to the mean of the two, each one's beside it. It
    drifts between the windows too, and the ratio with it. The gateway, the same process
    with alike work per command sent in the stack and in every floor, shows by how much:
    the ratio is given again with each window's CPU read against its own gateway's.
    """
    ms = stack.ms_per_accepted
    lines = [f"server CPU per accepted command, every server process: {ms:.3f} ms"]
    if floors:
        each = [floor.ms_per_command for floor in floors]
        mean = statistics.fmean(each)
        lines.append(
            f"  = {ms / mean:.2f} × the floor ({floors[0].shape}: "
            f"{mean:.3f} ms per command, the mean of "
            + " and ".join(
                f"{floor_ms:.3f} {when} ({ms / floor_ms:.2f} ×)"
                for when, floor_ms in zip(("before", "after"), each, strict=False)
            )
            + ")"
        )
        gateways = statistics.fmean(floor.gateway_ms_per_command for floor in floors)
        if gateways and stack.gateway_ms_per_command:
            read = ms / stack.gateway_ms_per_command / (mean / gateways)
            lines.append(
                f"  = {read:.2f} × the floor, each window read against its gateway's CPU per "
                f"command sent (the stack's {stack.gateway_ms_per_command:.3f} ms, the "
                f"floor's {gateways:.3f}): the machine's speed between the windows taken out"
            )
    steps = 1000 * ms / step_us
    lines.append(f"  = {steps:.0f} engine steps (the Spit engine's median step: {step_us:.1f} µs)")
    return lines
