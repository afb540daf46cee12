"""The arbitration service's settings, read once from the environment."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass

from services.arbitration.attendance import ABANDONED_AFTER_S
from services.arbitration.faults import Tolerances
from services.arbitration.matchlog.bounds import MIN_ENTRIES_PER_MATCH
from services.common.jetstream_config import LogLimits
from services.common.serving import Listen
from services.common.settings import listen, nats_coalesce_s, number


@dataclass(frozen=True, slots=True)
class Config:
    listen: Listen
    nats_url: str
    instance: str
    gate_timeout_s: float  # a Start/Continue gate nobody presses lifts itself after this
    away_after_s: float  # an online seat unheard (no command, no stream) this long is away
    # A match against the computer or on one device whose person is unheard this long ends.
    abandoned_after_s: float
    keep_finished_s: float  # how long a finished match still answers GetUpdate
    bank_ms: int  # the match clock: 120 s bank (rules §5); other values for tests only
    grace_ms: int  # and a fresh 10 s grace per genuinely new decision
    tolerances: Tolerances  # how much untrustworthy time is accepted (docs/timing-faults.md)
    advertise_host: str  # the host the gateway reaches this instance at
    adopt_every_s: float  # how often to look for a silent instance's matches to adopt
    log_limits: LogLimits  # what the log stream keeps (docs/arbitration-log.md, "Retention")
    nats_coalesce_s: float  # how long the hot path's NATS writes wait for those that follow

    @classmethod
    def from_env(cls) -> Config:
        """Return the settings from the process environment.

        Raises:
            ConfigError: for a number that is malformed or below 0.
        """
        env = os.environ
        where = listen(env)
        log = LogLimits()  # the defaults
        return cls(
            listen=where,
            nats_url=env.get("NATS_URL", "nats://127.0.0.1:4222"),
            # Stable across restarts: a restarted instance takes its own matches back.
            instance=env.get("PF_INSTANCE", socket.gethostname()),
            gate_timeout_s=number(env, "PF_GATE_TIMEOUT_S", 30.0, float, 0.0),
            away_after_s=number(env, "PF_AWAY_S", 30.0, float, 1.0),
            abandoned_after_s=number(env, "PF_ABANDONED_S", ABANDONED_AFTER_S, float, 1.0),
            keep_finished_s=number(env, "PF_KEEP_FINISHED_S", 600.0, float, 0.0),
            bank_ms=number(env, "PF_BANK_MS", 120000, int, 0),
            grace_ms=number(env, "PF_GRACE_MS", 10000, int, 0),
            tolerances=Tolerances(
                event_loop_lag_ms=number(env, "PF_TOLERANCE_LOOP_LAG_MS", 100.0, float, 0.0),
                timer_late_ms=number(env, "PF_TOLERANCE_TIMER_LATE_MS", 100.0, float, 0.0),
                forwarding_delay_ms=number(env, "PF_TOLERANCE_FORWARDING_MS", 100.0, float, 0.0),
                nats_disconnected_ms=number(env, "PF_TOLERANCE_NATS_OUTAGE_MS", 0.0, float, 0.0),
            ),
            advertise_host=env.get("PF_ADVERTISE_HOST", "") or _reachable(where.host),
            adopt_every_s=number(env, "PF_ADOPT_EVERY_S", 1.0, float, 0.0),
            log_limits=LogLimits(
                max_age_days=number(env, "PF_LOG_MAX_AGE_DAYS", log.max_age_days, float, 0.0),
                max_bytes=number(env, "PF_LOG_MAX_BYTES", log.max_bytes, int, 0),
                entries_per_match=number(
                    env,
                    "PF_LOG_ENTRIES_PER_MATCH",
                    log.entries_per_match,
                    int,
                    MIN_ENTRIES_PER_MATCH,
                ),
            ),
            nats_coalesce_s=nats_coalesce_s(env),
        )


def _reachable(host: str) -> str:
    """Return a host others can dial: a wildcard listen address becomes the host name."""
    return socket.gethostname() if host in ("0.0.0.0", "::", "") else host
