"""The arbitration's figures over a run's window, from two /metrics readings."""

from __future__ import annotations

import math

import pytest

from bench.stack import histograms
from bench.stack.procstat import bucket_percentile
from services.gateway.ops.samples import Samples, buckets, parse_samples

NAME = histograms.LOG_STORE


def reading(counts: tuple[float, float, float]) -> Samples:
    """Return a /metrics body's samples: cumulative counts at le 0.001, 0.01 and +Inf."""
    lines = [f"# TYPE {NAME} histogram"]
    for bound, count in zip(("0.001", "0.01", "+Inf"), counts, strict=True):
        lines.append(f'{NAME}_bucket{{le="{bound}"}} {count}')
    lines += [f"{NAME}_count {counts[-1]}", f"{NAME}_sum 0.0"]
    return parse_samples("\n".join(lines) + "\n")


def test_the_window_is_what_each_instance_gained_added_up() -> None:
    before = [reading((10, 10, 10)), reading((0, 0, 0))]
    after = [reading((10, 30, 30)), reading((0, 20, 20))]
    gained = histograms.gained(before, after)
    assert histograms.count(gained, NAME) == 40
    assert buckets(gained, NAME) == [(0.001, 0.0), (0.01, 40.0), (math.inf, 40.0)]
    # p50: rank 20 of 40, all in (0.001, 0.01]: halfway through the bucket.
    assert histograms.quantile(gained, NAME, 0.5) == pytest.approx(0.0055)


def test_an_instance_restarted_in_the_window_counts_from_zero() -> None:
    before, after = [reading((100, 100, 100))], [reading((0, 5, 5))]
    gained = histograms.gained(before, after)
    assert histograms.count(gained, NAME) == 5
    assert 0.001 < histograms.quantile(gained, NAME, 0.99) <= 0.01


def test_nothing_seen_is_nan_and_zero() -> None:
    gained = histograms.gained([reading((3, 3, 3))], [reading((3, 3, 3))])
    assert histograms.count(gained, NAME) == 0
    assert math.isnan(histograms.quantile(gained, NAME, 0.99))
    assert math.isnan(histograms.quantile({}, NAME, 0.5)) and histograms.count({}, NAME) == 0


def test_the_loop_lag_p99_is_its_buckets_upper_bound() -> None:
    assert bucket_percentile([(0.01, 98.0), (0.05, 100.0), (math.inf, 100.0)], 0.99) == 0.05
    assert bucket_percentile([(0.01, 99.0), (0.05, 100.0), (math.inf, 100.0)], 0.99) == 0.01
    assert math.isnan(bucket_percentile([], 0.99))
