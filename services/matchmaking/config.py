"""The matchmaking service's settings, read once from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from services.common import settings
from services.common.serving import Listen
from services.matchmaking.window import Window


@dataclass(frozen=True, slots=True)
class Config:
    """Where to listen, where NATS and ratings are, and how queues pair."""

    listen: Listen
    nats_url: str
    # How long arbitration (pf.match.create) and a bot pool (BotPools.Serve) may take to
    # answer before the caller is told UNAVAILABLE. Both answer in well under a millisecond
    # when up; 3 s rides out a busy machine without leaving a player staring at nothing.
    request_timeout_s: float
    log_level: str
    # The ratings service's gRPC address; "" queues everyone at the newcomer's 1500.
    ratings_addr: str = ""
    caller_token: str = ""  # PF_CALLER_TOKEN: what ratings knows matchmaking by
    # GetRating answers in about a millisecond; past 1 s a player is queued at 1500 rather
    # than kept waiting for a ladder that is down (docs/matchmaking.md).
    ratings_timeout_s: float = 1.0
    window: Window = field(default_factory=Window)
    # A rated pair is not paired again by the queue for this long (docs/matchmaking.md).
    rematch_cooldown_s: float = 600.0
    # Windows widen with time, so queues are paired again this often with no new arrival.
    pairing_interval_s: float = 1.0

    def __post_init__(self) -> None:
        if self.pairing_interval_s <= 0 or self.rematch_cooldown_s < 0:
            raise ValueError(
                f"pairing interval {self.pairing_interval_s} s must be positive and"
                f" rematch cooldown {self.rematch_cooldown_s} s not negative"
            )

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Config:
        """Return the settings from ``env`` (the process environment by default).

        Raises:
            ValueError: for a number that does not parse or a window that shrinks.
        """
        return cls(
            listen=settings.listen(env),
            nats_url=env.get("NATS_URL", "nats://127.0.0.1:4222"),
            request_timeout_s=float(env.get("PF_MATCHMAKING_REQUEST_TIMEOUT_S", "3.0")),
            log_level=env.get("PF_LOG_LEVEL", "INFO"),
            ratings_addr=env.get("PF_RATINGS_ADDR", ""),
            caller_token=env.get("PF_CALLER_TOKEN", ""),
            ratings_timeout_s=float(env.get("PF_MATCHMAKING_RATINGS_TIMEOUT_S", "1.0")),
            window=Window(
                start_points=float(env.get("PF_MATCHMAKING_WINDOW_START", "50")),
                growth_points_per_s=float(env.get("PF_MATCHMAKING_WINDOW_GROWTH_PER_S", "10")),
                cap_points=float(env.get("PF_MATCHMAKING_WINDOW_CAP", "500")),
            ),
            rematch_cooldown_s=float(env.get("PF_MATCHMAKING_REMATCH_COOLDOWN_S", "600")),
            pairing_interval_s=float(env.get("PF_MATCHMAKING_PAIRING_INTERVAL_S", "1.0")),
        )
