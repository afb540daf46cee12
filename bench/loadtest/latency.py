"""Submit → both views, joined across worker processes (pure).

The two seats of a tournament game are usually played by different worker processes, so
a worker only reports what it saw: each update's first arrival at a seat and each
accepted command's start. Both use ``time.perf_counter`` — CLOCK_MONOTONIC on Linux, the
same clock in every process of the machine — so the parent can join them: a command's
latency is from its start until both seats have received an update numbered at least as
high as the command's own number (as bench/stack measures it).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass, field


@dataclass(slots=True)
class SeatSeen:
    """One seat's first arrivals: numbers increasing, times in arrival order."""

    seqs: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    def add(self, seq: int, at: float) -> None:
        if self.seqs and self.seqs[-1] >= seq:
            return  # a repeat (race notice, resumed stream): not a first arrival
        self.seqs.append(seq)
        self.times.append(at)

    def first_at_least(self, seq: int) -> float | None:
        index = bisect.bisect_left(self.seqs, seq)
        return self.times[index] if index < len(self.seqs) else None


@dataclass(frozen=True, slots=True)
class Done:
    """A command whose views reached both seats: when it started and how long it took."""

    started: float
    latency_s: float


@dataclass(slots=True)
class Joiner:
    """Pairs commands with the updates that show them, as the reports come in."""

    seen: dict[tuple[str, int], SeatSeen] = field(default_factory=lambda: defaultdict(SeatSeen))
    waiting: dict[str, list[tuple[int, float]]] = field(default_factory=lambda: defaultdict(list))

    def saw(self, match_id: str, seat: int, seq: int, at: float) -> None:
        self.seen[(match_id, seat)].add(seq, at)

    def command(self, match_id: str, seq: int, started: float) -> None:
        self.waiting[match_id].append((seq, started))

    def resolve(self) -> list[Done]:
        """Return the commands now seen by both seats, and forget them."""
        done: list[Done] = []
        for match_id, commands in list(self.waiting.items()):
            left: list[tuple[int, float]] = []
            for seq, started in commands:
                first = self.seen[(match_id, 0)].first_at_least(seq)
                second = self.seen[(match_id, 1)].first_at_least(seq)
                if first is None or second is None:
                    left.append((seq, started))
                else:
                    done.append(Done(started, max(first, second) - started))
            if left:
                self.waiting[match_id] = left
            else:
                del self.waiting[match_id]
        return done

    def unresolved(self) -> int:
        return sum(len(commands) for commands in self.waiting.values())
