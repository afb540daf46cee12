"""CPU, memory and event-loop lag of the processes under test, from /proc and /metrics."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from bench.stack import histograms
from bench.stack.settings import CLOCK_TICKS
from services.gateway.ops.samples import Samples, buckets, difference, merged


def cpu_seconds(pid: int) -> float:
    """Return the user + system CPU seconds process ``pid`` has used (0 when gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def wakes(pid: int) -> int:
    """Return how often the threads of process ``pid`` have been switched out so far
    (voluntary and not, every thread: 0 when gone). A process that sleeps between
    messages wakes once per switch, and on a shared machine a wake costs more than most
    of what it does (docs/performance.md): a count that the machine's noise does not move."""
    total = 0
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                for line in (task / "status").read_text().splitlines():
                    if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt")):
                        total += int(line.split()[1])
    return total


def rss_mb(pid: int) -> float:
    """Return the resident memory of process ``pid`` in MB (0 when gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def machine_ticks() -> tuple[int, int]:
    """Return the (busy, total) CPU ticks of the whole machine so far, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


def child_pids_named(name: str) -> list[int]:
    """Return this process's children whose command name is ``name`` (nats-server)."""
    pids: list[int] = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with contextlib.suppress(OSError):
            for pid in (task / "children").read_text().split():
                with contextlib.suppress(OSError):
                    if Path(f"/proc/{pid}/comm").read_text().strip() == name:
                        pids.append(int(pid))
    return pids


def bucket_percentile(gained: list[tuple[float, float]], q: float) -> float:
    """Return the upper bound of the bucket holding quantile ``q`` of a window's histogram
    (cumulative (upper bound, count) pairs, as ``histograms.buckets`` gives them)."""
    if not gained or gained[-1][1] <= 0:
        return float("nan")
    for bound, count in gained:
        if count >= q * gained[-1][1]:
            return bound
    return float("inf")


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Return the value below which ``fraction`` of the sorted values lie."""
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


@dataclass(slots=True)
class Snapshot:
    """Every process's CPU seconds, the machine's ticks and every service's /metrics."""

    cpu: dict[str, float]
    wakes: dict[str, int]
    machine: tuple[int, int]
    metrics: dict[str, Samples]
    at: float

    @classmethod
    async def take(
        cls, http: aiohttp.ClientSession, pids: dict[str, int], metrics: dict[str, str]
    ) -> Snapshot:
        cpu = {name: cpu_seconds(pid) for name, pid in pids.items()}
        switches = {name: wakes(pid) for name, pid in pids.items()}
        machine, at = machine_ticks(), time.perf_counter()
        samples = {name: await histograms.fetch(http, url) for name, url in metrics.items()}
        return cls(cpu, switches, machine, samples, at)


@dataclass(slots=True)
class Usage:
    """What each process used between two snapshots."""

    wall_s: float
    cpu: dict[str, float]  # seconds
    wakes: dict[str, int]  # context switches, every thread
    rss: dict[str, float]  # MB at the end
    lag_p99_ms: dict[str, float]  # services: upper bound of the histogram bucket
    busy: float  # the machine, all processes: fraction of every core
    # What the arbitration instances' figures gained (timer lateness, log stores).
    arbitration: Samples

    @classmethod
    def between(
        cls, first: Snapshot, last: Snapshot, pids: dict[str, int], arbitration_names: list[str]
    ) -> Usage:
        """Return what was used from ``first`` to ``last``; ``arbitration_names``: the arbitration
        instances among the services."""
        ticks = last.machine[1] - first.machine[1]
        gained = {name: difference(now, first.metrics[name]) for name, now in last.metrics.items()}
        return cls(
            wall_s=last.at - first.at,
            cpu={name: last.cpu[name] - first.cpu[name] for name in pids},
            wakes={name: last.wakes[name] - first.wakes[name] for name in pids},
            rss={name: rss_mb(pid) for name, pid in pids.items()},
            lag_p99_ms={
                name: 1000 * bucket_percentile(buckets(window, histograms.EVENT_LOOP_LAG), 0.99)
                for name, window in gained.items()
            },
            busy=(last.machine[0] - first.machine[0]) / ticks if ticks > 0 else float("nan"),
            arbitration=merged(gained[name] for name in arbitration_names),
        )
