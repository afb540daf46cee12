"""Prometheus text exposition parsed into samples, and the sums and quantiles read from them."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from prometheus_client.parser import text_string_to_metric_families

# (sample name, sorted label pairs) -> value
Key = tuple[str, tuple[tuple[str, str], ...]]
Samples = dict[Key, float]


def parse_samples(text: str) -> Samples:
    """Return every sample in a `/metrics` body.

    Raises:
        ValueError: when the body is not the Prometheus text format.
    """
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def merged(many: Iterable[Samples]) -> Samples:
    """Return the samples of several processes added up (several instances of a service)."""
    total: Samples = {}
    for samples in many:
        for key, value in samples.items():
            total[key] = total.get(key, 0.0) + value
    return total


def difference(now: Samples, before: Samples) -> Samples:
    """Return what counters and histograms gained since ``before`` (a restart counts from 0)."""
    gained: Samples = {}
    for key, value in now.items():
        earlier = before.get(key, 0.0)
        gained[key] = value - earlier if value >= earlier else value
    return gained


def _matches(labels: tuple[tuple[str, str], ...], wanted: Mapping[str, str]) -> bool:
    present = dict(labels)
    return all(present.get(name) == value for name, value in wanted.items())


def total(samples: Samples, name: str, **labels: str) -> float:
    """Return the sum of ``name``'s samples whose labels include ``labels``."""
    return sum(
        value for (n, pairs), value in samples.items() if n == name and _matches(pairs, labels)
    )


def by_label(samples: Samples, name: str, label: str) -> dict[str, float]:
    """Return ``name``'s samples summed per value of ``label``."""
    sums: dict[str, float] = {}
    for (n, pairs), value in samples.items():
        key = dict(pairs).get(label)
        if n == name and key is not None:
            sums[key] = sums.get(key, 0.0) + value
    return sums


def buckets(samples: Samples, histogram: str, **labels: str) -> list[tuple[float, float]]:
    """Return a histogram's cumulative buckets as (upper bound, count), summed over the rest."""
    counts: dict[float, float] = {}
    for (n, pairs), value in samples.items():
        if n == f"{histogram}_bucket" and _matches(pairs, labels):
            bound = float(dict(pairs)["le"])
            counts[bound] = counts.get(bound, 0.0) + value
    return sorted(counts.items())


def quantile(q: float, cumulative: list[tuple[float, float]]) -> float | None:
    """Return the ``q``-quantile the way Prometheus's histogram_quantile estimates it.

    Linear within the bucket that holds it; the highest finite bound when it falls in +Inf;
    None with no observations.
    """
    if not cumulative or cumulative[-1][1] <= 0:
        return None
    rank = q * cumulative[-1][1]
    lower, below = 0.0, 0.0
    for bound, count in cumulative:
        if count >= rank:
            if math.isinf(bound):
                return lower
            if count == below:
                return bound
            return lower + (bound - lower) * (rank - below) / (count - below)
        lower, below = bound, count
    return lower
