"""The report's figures as one JSON document, saved as var/reports/loadtest-<time>.json."""

from __future__ import annotations

import bisect
import json
import math
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.loadtest.checks import Verdict
from bench.loadtest.faults import Injected
from bench.loadtest.progress import Progress, per_second
from bench.loadtest.report_html import render
from bench.loadtest.sampler import Samples
from bench.loadtest.settings import TARGET_P99_MS, Settings
from bench.stack import histograms
from bench.stack.procstat import percentile
from services.gateway.ops.samples import Samples as Metrics

HISTOGRAM_EDGES_MS = (
    0.5,
    1,
    2,
    3,
    4,
    5,
    6,
    8,
    10,
    12,
    15,
    20,
    25,
    30,
    40,
    50,
    75,
    100,
    150,
    200,
    300,
    500,
    1000,
)
MEMORY_PROCESSES = ("arbitration", "gateway")


def _number(value: float) -> float | None:
    return None if math.isnan(value) or math.isinf(value) else round(value, 3)


def build(
    settings: Settings,
    progress: Progress,
    samples: Samples,
    verdicts: list[Verdict],
    arbitration: Metrics,
    baseline_rss: dict[str, float],
    faults: list[Injected],
    players: int,
) -> dict[str, Any]:
    """Return every figure of the run, the checks and the time series, JSON-ready."""
    values = sorted(1000 * latency for _, latency in progress.latencies)
    seconds = per_second(progress)
    busy = [row["commands"] for row in seconds]
    live = [value for _, value in samples.live if not math.isnan(value)]
    peak_live = max(live, default=0.0)
    memory = {}
    for name in MEMORY_PROCESSES:
        if name not in samples.processes:  # --url: not our processes, nothing sampled
            continue
        peak = max((rss for _, _, rss in samples.processes.get(name, [])), default=0.0)
        delta_kb = 1024 * (peak - baseline_rss.get(name, peak))
        memory[name] = {
            "baseline_mb": _number(baseline_rss.get(name, math.nan)),
            "peak_mb": _number(peak),
            "kb_per_live_match": _number(delta_kb / peak_live) if peak_live else None,
        }
    return {
        "settings": {
            "players": settings.players,
            "seconds": settings.seconds,
            "pace": settings.pace,
            "games": list(settings.games),
            "fault": settings.fault,
            "fault_at_s": settings.fault_at_s,
            "url": settings.url or "(own stack)",
            "workers": settings.workers,
            "think_scales": {game: settings.scale(game) for game in settings.games},
        },
        # The run's zero (``progress.started``, perf_counter) on the wall clock, not now.
        "started_at": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ",
            time.gmtime(time.time() - (time.perf_counter() - progress.started)),
        ),
        "players_signed_in": players,
        "matches_played": len({m for _, m, _, _ in progress.assignments}),
        "peak_matches_in_play": max((n for _, n in progress.in_play), default=0.0),
        "peak_live_matches": _number(peak_live),  # held by the arbitration, ended ones too
        "latency_ms": {
            "count": len(values),
            "p50": _number(percentile(values, 0.5)),
            "p90": _number(percentile(values, 0.9)),
            "p99": _number(percentile(values, 0.99)),
            "max": _number(values[-1]) if values else None,
            "target_p99": TARGET_P99_MS,
            "unresolved": progress.joiner.unresolved(),
        },
        "latency_histogram": _histogram(values),
        "commands": {
            "accepted": len(progress.accepted_at),
            "per_s_mean": _number(sum(busy) / len(busy)) if busy else None,
            "per_s_peak": max(busy, default=0.0),
            "refused": dict(progress.refusals.most_common()),
            "pace_per_player": _number(_pace(progress, len(seconds))),
        },
        "timer_lateness_ms": _quantiles(arbitration, histograms.TIMER_LATENESS),
        "log_store_ms": _quantiles(arbitration, histograms.LOG_STORE),
        "memory": memory,
        "client_errors": dict(progress.errors.most_common()),
        "faults": [asdict(f) | {"what": f.describe()} for f in faults],
        "checks": [
            {
                "name": v.name,
                "passed": v.passed,
                "checked": v.checked,
                "failed": v.failed,
                "failures": v.failures,
                "notes": v.notes,
            }
            for v in verdicts
        ],
        "all_checks_passed": all(v.passed for v in verdicts),
        "per_second": [{k: _number(v) for k, v in row.items()} for row in seconds],
        "processes": {
            name: [[round(t, 2), round(cpu, 1), round(rss, 1)] for t, cpu, rss in rows]
            for name, rows in samples.processes.items()
        },
        "live_matches": [[round(t, 2), _number(v)] for t, v in samples.live],
        "in_play": [[round(t, 2), n] for t, n in progress.in_play],
    }


def _quantiles(samples: Metrics, histogram: str) -> dict[str, float | None]:
    return {
        "count": histograms.count(samples, histogram),
        "p50": _number(1000 * histograms.quantile(samples, histogram, 0.5)),
        "p99": _number(1000 * histograms.quantile(samples, histogram, 0.99)),
    }


def _pace(progress: Progress, seconds: int) -> float:
    """Return the commands (accepted or refused) a seat in play sent per second."""
    seats = [2 * n for _, n in progress.in_play if n > 0]
    if not seats or seconds <= 0:
        return math.nan
    sent = len(progress.accepted_at) + sum(progress.refusals.values())
    return sent / seconds / (sum(seats) / len(seats))


def _histogram(values: list[float]) -> list[dict[str, float | None]]:
    counts = [0] * (len(HISTOGRAM_EDGES_MS) + 1)
    for value in values:  # the first bucket whose upper edge is ≥ the value
        counts[bisect.bisect_left(HISTOGRAM_EDGES_MS, value)] += 1
    uppers: list[float | None] = [*HISTOGRAM_EDGES_MS, None]  # None: beyond the last edge
    return [{"le_ms": u, "count": c} for u, c in zip(uppers, counts, strict=True)]


def write(report: dict[str, Any], out: Path) -> dict[str, Any]:
    """Save the report as JSON and HTML under ``out``; return it with both paths added."""
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"loadtest-{time.strftime('%Y%m%d-%H%M%S')}"
    json_path, html_path = stem.with_suffix(".json"), stem.with_suffix(".html")
    report["files"] = {"json": str(json_path), "html": str(html_path)}
    json_path.write_text(json.dumps(report, indent=1, allow_nan=False))
    html_path.write_text(render(report))
    return report
