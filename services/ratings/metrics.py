"""The ratings service's Prometheus metrics."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from services.common.metrics import LATENCY_BUCKETS_S

RESULTS = Counter(
    "pf_ratings_results",
    "Results counted from the results stream, by kind (rated, unrated, voided)",
    ["kind"],
)
DUPLICATES = Counter(
    "pf_ratings_duplicates",
    "Results delivered again after they were counted (redelivery or republish): ignored",
)
MALFORMED = Counter(
    "pf_ratings_malformed",
    "Messages on the results stream that are not a valid result: terminated, not retried",
    ["reason"],
)
PENDING = Gauge(
    "pf_ratings_consumer_pending",
    "Results in the stream not yet delivered to the ratings consumer (its lag)",
)
UPDATE_SECONDS = Histogram(
    "pf_ratings_update_seconds",
    "Time to store one result with its rating changes (one database transaction)",
    buckets=LATENCY_BUCKETS_S,
)
