"""The rules service's metrics: how long an Apply takes, and how commands were judged."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import grpc
from prometheus_client import Counter, Histogram

from games.registry import BY_NUMBER as GAMES
from services.common.metrics import LATENCY_BUCKETS_S
from services.common.rejection import Rejection

APPLY_SECONDS = Histogram(
    "pf_rules_apply_seconds",
    "Time to serve one Apply: decode, judge, encode all perspectives",
    ["game"],
    buckets=LATENCY_BUCKETS_S,
)
COMMANDS = Counter(
    "pf_rules_commands_total",
    "Commands judged by Apply, by game and result",
    ["game", "result"],
)

_RESULTS = {
    grpc.StatusCode.INVALID_ARGUMENT: "malformed",
    grpc.StatusCode.FAILED_PRECONDITION: "refused",
}


@contextlib.contextmanager
def applying(game: int) -> Iterator[None]:
    """Time the Apply inside the block and count its result (accepted, refused, malformed)."""
    entry = GAMES.get(game)
    name = "unknown" if entry is None else entry.name
    started = time.perf_counter()
    result = "error"
    try:
        yield
        result = "accepted"
    except Rejection as rejection:
        result = _RESULTS.get(rejection.code, "error")
        raise
    finally:
        APPLY_SECONDS.labels(game=name).observe(time.perf_counter() - started)
        COMMANDS.labels(game=name, result=result).inc()
