"""The ops page's key figures, computed from two scrapes of every service (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.gateway.ops.samples import (
    Samples,
    buckets,
    by_label,
    difference,
    merged,
    quantile,
    total,
)

Figures = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Scrape:
    """Every target's samples at one instant; None for a target that did not answer."""

    at_s: float
    by_target: dict[str, Samples | None]

    def answered(self) -> Samples:
        return merged(samples for samples in self.by_target.values() if samples is not None)


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)


def _p(q: float, samples: Samples, histogram: str, **labels: str) -> float | None:
    return _ms(quantile(q, buckets(samples, histogram, **labels)))


def figures(now: Scrape, before: Scrape | None) -> Figures:
    """Return the key figures: gauges as of ``now``; rates and quantiles since ``before``.

    Without ``before`` (the first look) quantiles cover everything since each process
    started and rates are None.
    """
    current = now.answered()
    window = current if before is None else difference(current, before.answered())
    window_s = None if before is None else round(now.at_s - before.at_s, 3)
    commands = total(window, "pf_commands_total")
    return {
        "window_s": window_s,
        "services": [
            _service(name, samples, before, now) for name, samples in now.by_target.items()
        ],
        "live_matches": total(current, "pf_live_matches"),
        "commands_total": total(current, "pf_commands_total"),
        "commands_per_s": None if not window_s else round(commands / window_s, 3),
        "command_latency_ms": {
            "p50": _p(0.5, window, "pf_gateway_unary_seconds", method="Submit"),
            "p99": _p(0.99, window, "pf_gateway_unary_seconds", method="Submit"),
        },
        "timer_lateness_p99_ms": _p(0.99, window, "pf_deadline_timer_lateness_seconds"),
        "forwarding_delay_p99_ms": _p(0.99, window, "pf_forwarding_delay_seconds"),
        "faults": by_label(current, "pf_timing_faults_total", "kind"),
        "voids": by_label(current, "pf_voids_total", "reason"),
        "restarts": by_label(current, "pf_restarts_total", "process"),
        "queues": _queues(current),
        "open_challenges": total(current, "pf_matchmaking_open_challenges"),
        "ratings_pending": total(current, "pf_ratings_consumer_pending"),
    }


def _service(name: str, samples: Samples | None, before: Scrape | None, now: Scrape) -> Figures:
    if samples is None:
        return {"name": name, "up": False, "loop_lag_p99_ms": None}
    earlier = None if before is None else before.by_target.get(name)
    window = samples if earlier is None else difference(samples, earlier)
    return {
        "name": name,
        "up": True,
        "loop_lag_p99_ms": _p(0.99, window, "pf_event_loop_lag_seconds"),
    }


def _queues(samples: Samples) -> list[Figures]:
    rows = []
    for (name, pairs), value in sorted(samples.items()):
        if name == "pf_matchmaking_queue_length":
            labels = dict(pairs)
            rows.append(
                {"game": labels.get("game", ""), "rated": labels.get("rated", ""), "length": value}
            )
    return rows
