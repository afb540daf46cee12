"""Samples read from the Prometheus text format, and quantiles estimated like Prometheus."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from services.gateway.ops.samples import (
    buckets,
    by_label,
    difference,
    merged,
    parse_samples,
    quantile,
    total,
)

BOUNDS = (0.001, 0.01, 0.1)


def exposition(observations: list[float], commands: dict[str, int]) -> str:
    registry = CollectorRegistry()
    histogram = Histogram("pf_x_seconds", "x", ["method"], buckets=BOUNDS, registry=registry)
    counter = Counter("pf_y_total", "y", ["result"], registry=registry)
    for value in observations:
        histogram.labels("Submit").observe(value)
    for result, count in commands.items():
        counter.labels(result).inc(count)
    return generate_latest(registry).decode()


def test_counters_are_summed_by_name_and_label() -> None:
    samples = parse_samples(exposition([], {"accepted": 3, "refused": 2}))
    assert total(samples, "pf_y_total") == 5
    assert total(samples, "pf_y_total", result="refused") == 2
    assert by_label(samples, "pf_y_total", "result") == {"accepted": 3, "refused": 2}


def test_histogram_buckets_are_cumulative_and_sorted() -> None:
    samples = parse_samples(exposition([0.0005, 0.005, 0.005, 5.0], {}))
    assert buckets(samples, "pf_x_seconds", method="Submit") == [
        (0.001, 1),
        (0.01, 3),
        (0.1, 3),
        (float("inf"), 4),
    ]


def test_quantile_interpolates_within_its_bucket_like_histogram_quantile() -> None:
    cumulative = [(0.001, 0.0), (0.01, 10.0), (0.1, 10.0), (float("inf"), 10.0)]
    assert quantile(0.5, cumulative) == pytest.approx(0.0055)
    assert quantile(0.99, cumulative) == pytest.approx(0.001 + 0.009 * 0.99)


def test_quantile_in_the_infinite_bucket_is_the_highest_finite_bound() -> None:
    assert quantile(0.99, [(0.1, 1.0), (float("inf"), 10.0)]) == 0.1


def test_no_observations_have_no_quantile() -> None:
    assert quantile(0.5, []) is None
    assert quantile(0.5, [(0.1, 0.0), (float("inf"), 0.0)]) is None


def test_two_processes_add_up_and_a_restarted_one_counts_from_zero() -> None:
    a = parse_samples(exposition([], {"accepted": 3}))
    b = parse_samples(exposition([], {"accepted": 4}))
    assert total(merged([a, b]), "pf_y_total") == 7
    assert total(difference(b, a), "pf_y_total") == 1
    assert total(difference(a, b), "pf_y_total") == 3  # went down: restarted, counts from 0


def test_text_that_is_not_the_exposition_format_is_refused() -> None:
    with pytest.raises(ValueError):
        parse_samples("this is { not metrics")


@given(st.lists(st.floats(0, 1), min_size=1), st.floats(0.01, 0.99))
def test_a_quantile_lies_within_the_bucket_bounds(values: list[float], q: float) -> None:
    samples = parse_samples(exposition(values, {}))
    estimate = quantile(q, buckets(samples, "pf_x_seconds"))
    assert estimate is not None
    assert 0 <= estimate <= BOUNDS[-1]
