"""What the stack's CPU per command is measured against in the same run: the floor and the
engine's own step.

Absolute times move with the machine (the same commit costs twice as much on a slow
day); a ratio measured in the same run does not. The **floor** is a relay built from the
stack's own parts (``bench.floor``: the gateway, one NATS hop, the update out on both
seats' streams; no game, no log) at the same load; the **engine step** is the Spit
engine's median ``apply``, in this process, on matches its bots play.
"""

from __future__ import annotations

import statistics

from bench.engines import record, time_applies
from bench.floor.run import Floor
from games.registry import SPIT

YARDSTICK_MATCHES = 12  # Spit bot matches timed for the engine step (about a second)


def spit_step_us() -> float:
    """Return the Spit engine's median step, µs, measured now on this machine."""
    samples = time_applies(SPIT, record(SPIT, YARDSTICK_MATCHES))
    return statistics.median(samples) / 1000


def ratio_lines(stack_ms_per_accepted: float, floors: list[Floor], step_us: float) -> list[str]:
    """Return the stack's CPU per accepted command as multiples of the floor and the step.

    The floor is measured before the stack and again after it: the machine's speed drifts
    within a run, and the ratio is taken to the mean of the two, each one's beside it.
    """
    lines = [
        f"server CPU per accepted command, every server process: {stack_ms_per_accepted:.3f} ms"
    ]
    if floors:
        each = [floor.ms_per_command for floor in floors]
        mean = statistics.fmean(each)
        lines.append(
            f"  = {stack_ms_per_accepted / mean:.2f} × the floor ({floors[0].shape}: "
            f"{mean:.3f} ms per command, the mean of "
            + " and ".join(
                f"{ms:.3f} {when} ({stack_ms_per_accepted / ms:.2f} ×)"
                for when, ms in zip(("before", "after"), each, strict=False)
            )
            + ")"
        )
    steps = 1000 * stack_ms_per_accepted / step_us
    lines.append(f"  = {steps:.0f} engine steps (the Spit engine's median step: {step_us:.1f} µs)")
    return lines
