"""The ratings service's configuration, read from the environment in one place."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from services.common import settings
from services.common.database import Target
from services.common.serving import Listen
from services.common.settings import ConfigError, database, number
from services.fairplay.flags import Thresholds
from services.ratings.faults import CrashPoint, FaultPlan
from services.ratings.store import RATED_PER_PAIR_PER_DAY

SQLITE_FILE = "ratings.sqlite3"


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the process needs; built once, by ``from_env``."""

    listen: Listen
    nats_url: str
    database: Target
    ack_wait_s: float = 10.0  # JetStream redelivers an unacked result after this long
    fetch_batch: int = 64
    idle_poll_s: float = 1.0  # how long one fetch waits on an empty stream
    log_level: str = "INFO"
    rated_per_pair_per_day: int = RATED_PER_PAIR_PER_DAY
    faults: FaultPlan = field(default_factory=FaultPlan)
    # Fair play (docs/fair-play.md): when answers are beyond reach, and reports a day.
    thresholds: Thresholds = field(default_factory=Thresholds)
    reports_per_day: int = 5

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Return the configuration from ``env`` (default: the process environment).

        Raises:
            ConfigError: for a malformed number, database URL or crash point.
        """
        env = os.environ if env is None else env
        return cls(
            listen=settings.listen(env),
            nats_url=env.get("NATS_URL", "nats://127.0.0.1:4222"),
            database=database(env, SQLITE_FILE),
            ack_wait_s=number(env, "PF_RATINGS_ACK_WAIT_S", 10.0, float, 0.1),
            fetch_batch=number(env, "PF_RATINGS_FETCH_BATCH", 64, int, 1),
            idle_poll_s=number(env, "PF_RATINGS_IDLE_POLL_S", 1.0, float, 0.01),
            log_level=env.get("PF_LOG_LEVEL", "INFO").upper(),
            rated_per_pair_per_day=number(
                env, "PF_RATED_PER_PAIR_PER_DAY", RATED_PER_PAIR_PER_DAY, int, 1
            ),
            faults=_fault_plan(env),
            thresholds=_thresholds(env),
            reports_per_day=number(env, "PF_REPORTS_PER_DAY", 5, int, 1),
        )


def _thresholds(env: Mapping[str, str]) -> Thresholds:
    default = Thresholds()
    return Thresholds(
        min_answers=number(env, "PF_FAIRPLAY_MIN_ANSWERS", default.min_answers, int, 1),
        median_ms=number(env, "PF_FAIRPLAY_MEDIAN_MS", default.median_ms, float, 0.0),
        anticipation_ms=number(
            env, "PF_FAIRPLAY_ANTICIPATION_MS", default.anticipation_ms, float, 0.0
        ),
        anticipation_share=number(
            env, "PF_FAIRPLAY_ANTICIPATION_SHARE", default.anticipation_share, float, 0.0
        ),
    )


def _fault_plan(env: Mapping[str, str]) -> FaultPlan:
    point = env.get("PF_RATINGS_CRASH_AT", "")
    if not point:
        return FaultPlan()
    try:
        crash_point = CrashPoint(point)
    except ValueError:
        names = [p.value for p in CrashPoint]
        raise ConfigError(f"PF_RATINGS_CRASH_AT={point!r} is not one of {names}") from None
    return FaultPlan(crash_point, number(env, "PF_RATINGS_CRASH_ON_MESSAGE", 1, int, 1))
