"""The rules service's metrics: how long an Apply takes, and how commands were judged."""

from __future__ import annotations

import functools
import time

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


class Applying:
    """Times an Apply and counts its result (accepted, refused, malformed, error).

    A context manager object rather than a generator: it runs once per command, and the
    metric children it touches are found once per game and result.
    """

    __slots__ = ("_game", "_started")

    def __init__(self, game: int) -> None:
        self._game = game
        self._started = 0.0

    def __enter__(self) -> None:
        self._started = time.perf_counter()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, _: object
    ) -> None:
        elapsed = time.perf_counter() - self._started
        if kind is None:
            result = "accepted"
        elif isinstance(error, Rejection):
            result = _RESULTS.get(error.code, "error")
        else:
            result = "error"
        seconds, counted = _children(self._game, result)
        seconds.observe(elapsed)
        counted.inc()


@functools.cache
def _children(game: int, result: str) -> tuple[Histogram, Counter]:
    entry = GAMES.get(game)
    name = "unknown" if entry is None else entry.name
    return APPLY_SECONDS.labels(game=name), COMMANDS.labels(game=name, result=result)
