"""The bot pool's settings, read once from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Config:
    """Where matchmaking and the gateway are, and how the pool paces and bounds itself."""

    # Matchmaking's gRPC address: the pool holds its BotPools.Serve stream open there,
    # known by ``caller_token`` (matchmaking accepts it for that door alone).
    matchmaking_addr: str
    caller_token: str
    gateway_url: str
    # Seeds every seat's generator from (seed, match, seat), so a match's bot choices
    # replay; None draws from the OS.
    seed: int | None
    # Multiplies the engine bots' think times: 1 is their designed pace (rules §7 levels);
    # tests and load runs use less so a whole match fits in seconds.
    think_scale: float
    # Bots signed in and not yet done (waiting for their match, or playing) at most; past
    # it a request is answered with no player, so matchmaking says so at once.
    max_seats: int
    # A bot whose match never opened (and nobody said so) is forgotten after this long.
    waiting_ttl_s: float
    # How long a lost Watch stream is retried before the seat is given up.
    give_up_s: float
    log_level: str

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Config:
        """Return the settings from ``env`` (the process environment by default).

        Raises:
            KeyError: when PF_GATEWAY_URL is missing.
            ValueError: when a number is malformed or out of range.
        """
        seed = env.get("PF_BOTS_SEED", "")
        config = cls(
            matchmaking_addr=env.get("PF_MATCHMAKING_ADDR", "127.0.0.1:7103"),
            caller_token=env.get("PF_CALLER_TOKEN", ""),
            gateway_url=env["PF_GATEWAY_URL"],
            seed=int(seed) if seed else None,
            think_scale=float(env.get("PF_BOTS_THINK_SCALE", "1.0")),
            max_seats=int(env.get("PF_BOTS_MAX_SEATS", "1000")),
            waiting_ttl_s=float(env.get("PF_BOTS_WAITING_TTL_S", "300")),
            give_up_s=float(env.get("PF_BOTS_GIVE_UP_S", "300")),
            log_level=env.get("PF_LOG_LEVEL", "INFO"),
        )
        if config.think_scale < 0 or config.max_seats < 1 or config.give_up_s < 0:
            raise ValueError(f"impossible bot pool settings: {config}")
        return config
