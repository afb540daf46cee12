"""The ops page's key figures from two scrapes."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from services.common.metrics import LATENCY_BUCKETS_S
from services.gateway.ops.figures import Scrape, figures
from services.gateway.ops.samples import Samples, parse_samples


def arbitration(commands: int, live: int, faults: int) -> Samples:
    registry = CollectorRegistry()
    Counter("pf_commands", "c", ["result"], registry=registry).labels("accepted").inc(commands)
    Gauge("pf_live_matches", "l", registry=registry).set(live)
    fault = Counter("pf_timing_faults", "f", ["kind"], registry=registry)
    fault.labels("event_loop_lag").inc(faults)
    lag = Histogram(
        "pf_event_loop_lag_seconds", "lag", buckets=LATENCY_BUCKETS_S, registry=registry
    )
    lag.observe(0.002)
    return parse_samples(generate_latest(registry).decode())


def gateway(submits: list[float]) -> Samples:
    registry = CollectorRegistry()
    unary = Histogram(
        "pf_gateway_unary_seconds",
        "u",
        ["method", "code"],
        buckets=LATENCY_BUCKETS_S,
        registry=registry,
    )
    for seconds in submits:
        unary.labels("Submit", "OK").observe(seconds)
    unary.labels("SignIn", "OK").observe(0.9)  # not a command
    return parse_samples(generate_latest(registry).decode())


def test_first_look_has_totals_and_quantiles_since_start_but_no_rates() -> None:
    now = Scrape(100.0, {"gateway": gateway([0.001] * 10), "arbitration": arbitration(40, 3, 1)})
    shown = figures(now, None)
    assert shown["window_s"] is None
    assert shown["commands_per_s"] is None
    assert shown["commands_total"] == 40
    assert shown["live_matches"] == 3
    assert shown["faults"] == {"event_loop_lag": 1}
    assert 0.5 < shown["command_latency_ms"]["p50"] <= 1.0
    assert shown["command_latency_ms"]["p99"] <= 1.0  # SignIn's 900 ms is not a command


def test_rates_and_quantiles_cover_the_window_between_scrapes() -> None:
    before = Scrape(100.0, {"gateway": gateway([0.001] * 10), "arbitration": arbitration(40, 3, 0)})
    now = Scrape(
        110.0, {"gateway": gateway([0.001] * 10 + [0.2] * 10), "arbitration": arbitration(90, 2, 0)}
    )
    shown = figures(now, before)
    assert shown["window_s"] == 10.0
    assert shown["commands_per_s"] == 5.0
    assert shown["command_latency_ms"]["p50"] > 100  # only the slow calls of the window


def test_a_target_that_did_not_answer_is_down_and_the_rest_still_count() -> None:
    now = Scrape(1.0, {"arbitration": arbitration(5, 1, 0), "ratings": None})
    services = {s["name"]: s for s in figures(now, None)["services"]}
    assert services["ratings"] == {"name": "ratings", "up": False, "loop_lag_p99_ms": None}
    assert services["arbitration"]["up"] is True
    assert services["arbitration"]["loop_lag_p99_ms"] is not None
