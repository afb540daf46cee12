"""Quantiles of a service's Prometheus histograms over the measured window.

Read from the text format at two instants; the difference is what the window added. The
quantile is interpolated linearly inside its bucket, as PromQL's histogram_quantile does.
"""

from __future__ import annotations

import contextlib
import math

import aiohttp

# The arbitration's figures that issue targets name (docs/failover.md, docs/timing-faults.md).
TIMER_LATENESS = "pf_deadline_timer_lateness_seconds"
SNAPSHOT_SAVE = "pf_snapshot_save_seconds"

Buckets = dict[float, float]  # upper bound → cumulative count


async def fetch(
    http: aiohttp.ClientSession, url: str, names: tuple[str, ...]
) -> dict[str, Buckets]:
    """Return each named histogram's cumulative buckets at ``url`` (empty when unreachable)."""
    found: dict[str, Buckets] = {name: {} for name in names}
    with contextlib.suppress(aiohttp.ClientError, TimeoutError):
        async with http.get(url, timeout=aiohttp.ClientTimeout(total=5)) as response:
            text = await response.text()
        for line in text.splitlines():
            for name in names:
                if line.startswith(f"{name}_bucket{{"):
                    bound = line.split('le="', 1)[1].split('"', 1)[0]
                    found[name][float(bound)] = float(line.rsplit(" ", 1)[1])
    return found


def window(before: Buckets, after: Buckets) -> Buckets:
    """Return what was observed between the two readings."""
    return {bound: count - before.get(bound, 0.0) for bound, count in after.items()}


def combined(parts: list[Buckets]) -> Buckets:
    """Return the sum of several instances' histograms (same buckets)."""
    total: Buckets = {}
    for part in parts:
        for bound, count in part.items():
            total[bound] = total.get(bound, 0.0) + count
    return total


def quantile(buckets: Buckets, q: float) -> float:
    """Return the ``q`` quantile, interpolated in its bucket (nan when nothing was seen)."""
    bounds = sorted(buckets)
    if not bounds or buckets[bounds[-1]] <= 0:
        return math.nan
    rank = q * buckets[bounds[-1]]
    lower, below = 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if math.isinf(bound):
                return lower
            inside = count - below
            return lower + (bound - lower) * ((rank - below) / inside if inside > 0 else 1.0)
        lower, below = bound, count
    return lower


def count(buckets: Buckets) -> int:
    return int(buckets[max(buckets)]) if buckets else 0
