"""The matchmaking service's settings, read once from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from services.common.serving import Listen


@dataclass(frozen=True, slots=True)
class Config:
    """Where to listen, where NATS is and how long to wait for its responders."""

    listen: Listen
    nats_url: str
    # How long arbitration (pf.match.create) and the bot pool (pf.bots.request) may take to
    # answer before the caller is told UNAVAILABLE. Both answer in well under a millisecond
    # when up; 3 s rides out a busy machine without leaving a player staring at nothing.
    request_timeout_s: float
    log_level: str

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Config:
        """Return the settings from ``env`` (the process environment by default)."""
        return cls(
            listen=Listen(
                host=env.get("PF_HOST", "127.0.0.1"),
                grpc_port=int(env.get("PF_GRPC_PORT", "0")),
                metrics_port=int(env.get("PF_METRICS_PORT", "0")),
            ),
            nats_url=env.get("NATS_URL", "nats://127.0.0.1:4222"),
            request_timeout_s=float(env.get("PF_MATCHMAKING_REQUEST_TIMEOUT_S", "3.0")),
            log_level=env.get("PF_LOG_LEVEL", "INFO"),
        )
