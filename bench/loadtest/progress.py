"""The run as it goes: latencies joined, counts per second, and the line printed each second."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.loadtest.checks import Received
from bench.loadtest.latency import Joiner
from bench.stack.procstat import percentile


@dataclass(slots=True)
class Progress:
    """Everything the workers reported, added up; ``started`` is the run's zero (perf_counter)."""

    started: float
    joiner: Joiner = field(default_factory=Joiner)
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (start s, latency s)
    accepted_at: list[float] = field(default_factory=list)  # answer times, s since start
    refusals: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    received: list[Received] = field(default_factory=list)
    finals: list[tuple[str, int, int, str]] = field(default_factory=list)
    assignments: list[tuple[str, str, int, str]] = field(default_factory=list)
    playing: dict[int, int] = field(default_factory=dict)  # seats in play, by worker
    in_play: list[tuple[float, float]] = field(default_factory=list)  # (s, matches in play)

    def add(self, worker: int, batch: dict[str, Any]) -> None:
        for match_id, seat, seq, at, shown, chips, right in batch["updates"]:
            self.joiner.saw(match_id, seat, seq, at)
            self.received.append(Received(match_id, seat, seq, shown, chips, right))
        for match_id, seq, started, answered in batch["commands"]:
            self.joiner.command(match_id, seq, started)
            self.accepted_at.append(answered - self.started)
        self.refusals.update(batch["refusals"])
        self.errors.update(batch["errors"])
        self.finals += batch["finals"]
        self.assignments += batch["assignments"]
        self.playing[worker] = batch["playing"]
        for done in self.joiner.resolve():
            self.latencies.append((done.started - self.started, done.latency_s))

    def p99_ms(self) -> float:
        values = sorted(latency for _, latency in self.latencies)
        return 1000 * percentile(values, 0.99)

    def line(self, now_s: float, players: int, live: float) -> str:
        """Return the progress line, and note the matches in play now (seats / 2)."""
        self.in_play.append((now_s, sum(self.playing.values()) / 2))
        recent = sum(1 for at in self.accepted_at if now_s - 1.0 <= at < now_s)
        errors = sum(self.errors.values())
        live_text = "?" if math.isnan(live) else f"{live:.0f}"
        return (
            f"{now_s:6.1f} s  players {players}  matches in play {self.in_play[-1][1]:.0f} "
            f"(arbitration holds {live_text})  commands/s {recent}  "
            f"p99 so far {self.p99_ms():.1f} ms (n={len(self.latencies)})  "
            f"refused {sum(self.refusals.values())}  errors {errors}"
        )


def per_second(progress: Progress) -> list[dict[str, float]]:
    """Return, for each second of the run, p50/p99 latency (ms) and accepted commands."""
    latencies: dict[int, list[float]] = defaultdict(list)
    for at, latency in progress.latencies:
        latencies[int(at)].append(1000 * latency)
    commands: Counter[int] = Counter(int(at) for at in progress.accepted_at)
    last = max([*latencies, *commands], default=-1)
    rows = []
    for second in range(last + 1):
        values = sorted(latencies.get(second, []))
        rows.append(
            {
                "t": float(second),
                "p50_ms": percentile(values, 0.5),
                "p99_ms": percentile(values, 0.99),
                "commands": float(commands.get(second, 0)),
            }
        )
    return rows
