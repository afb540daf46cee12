"""The services' Prometheus figures over the measured window, read from ``/metrics``.

Read at two instants; what the counters and histograms gained in between is what the
window added (``services.gateway.ops.samples``, which the gateway's /ops page uses too:
the same parser, the same restart rule, the same interpolated quantile as PromQL's
histogram_quantile).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence

import aiohttp

from services.gateway.ops.samples import Samples, buckets, difference, merged, parse_samples
from services.gateway.ops.samples import quantile as bucket_quantile

# The arbitration's figures that issue targets name (docs/failover.md, docs/timing-faults.md).
TIMER_LATENESS = "pf_deadline_timer_lateness_seconds"
LOG_STORE = "pf_log_store_seconds"
LIVE_MATCHES = "pf_live_matches"
TIMING_FAULTS = "pf_timing_faults_total"
VOIDS = "pf_voids_total"
EVENT_LOOP_LAG = "pf_event_loop_lag_seconds"


async def fetch(http: aiohttp.ClientSession, url: str) -> Samples:
    """Return every sample at ``url`` (empty when unreachable or not Prometheus text)."""
    with contextlib.suppress(aiohttp.ClientError, TimeoutError, ValueError):
        async with http.get(url, timeout=aiohttp.ClientTimeout(total=5)) as response:
            return parse_samples(await response.text())
    return {}


def gained(before: Sequence[Samples], after: Sequence[Samples]) -> Samples:
    """Return what several instances gained between two readings each, added up.

    An instance restarted in between (the load test's fault mode) counts from zero.
    """
    return merged(difference(a, b) for b, a in zip(before, after, strict=True))


def quantile(samples: Samples, histogram: str, q: float) -> float:
    """Return ``histogram``'s ``q`` quantile, interpolated in its bucket (nan: none seen)."""
    value = bucket_quantile(q, buckets(samples, histogram))
    return math.nan if value is None else value


def count(samples: Samples, histogram: str) -> int:
    """Return how many observations ``histogram`` holds."""
    cumulative = buckets(samples, histogram)
    return int(cumulative[-1][1]) if cumulative else 0
