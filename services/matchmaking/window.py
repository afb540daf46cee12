"""How far apart in rating two waiting players may be: a window that widens with the wait.

A ticket accepts opponents within ``half_width`` rating points of its own rating. The
window starts narrow (close games for whoever finds a close opponent at once) and grows
linearly with the time waited up to a cap (nobody is offered a hopeless mismatch).
With the defaults: ±50 at once, ±150 after 10 s, ±300 after 25 s, ±500 from 45 s on.
"""

from __future__ import annotations

from dataclasses import dataclass

NS_PER_S = 1_000_000_000


@dataclass(frozen=True, slots=True)
class Window:
    """The window's curve: ``start_points`` + ``growth_points_per_s`` x seconds, capped."""

    start_points: float = 50.0
    growth_points_per_s: float = 10.0
    cap_points: float = 500.0

    def __post_init__(self) -> None:
        if self.start_points < 0 or self.growth_points_per_s < 0:
            raise ValueError(f"a window never shrinks or starts negative: {self}")
        if self.cap_points < self.start_points:
            raise ValueError(f"the cap is below the start: {self}")

    def half_width(self, waited_ns: int) -> float:
        """Return how many rating points either side a ticket accepts after ``waited_ns``."""
        grown = self.start_points + self.growth_points_per_s * max(0, waited_ns) / NS_PER_S
        return min(self.cap_points, grown)

    def seconds_to_cap(self) -> float:
        """Return how long a ticket waits before its window stops growing."""
        if self.growth_points_per_s == 0:
            return 0.0
        return (self.cap_points - self.start_points) / self.growth_points_per_s
