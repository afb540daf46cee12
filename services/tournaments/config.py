"""The tournaments service's configuration, read from the environment in one place."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from services.common import settings
from services.common.database import Target
from services.common.serving import Listen
from services.common.settings import database, number

SQLITE_FILE = "tournaments.sqlite3"


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the process needs; built once, by ``from_env``."""

    listen: Listen
    nats_url: str
    database: Target
    pairing_interval_s: float = 1.0  # a pairing round this often while a tournament is live
    overtime_s: float = 600.0  # after the end, how long games in progress may still finish
    open_timeout_s: float = 5.0  # how long arbitration may take to open a match
    ack_wait_s: float = 10.0  # JetStream redelivers an unacked result or deletion this late
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Return the configuration from ``env`` (default: the process environment).

        Raises:
            ConfigError: for a malformed number or database URL.
        """
        env = os.environ if env is None else env
        return cls(
            listen=settings.listen(env),
            nats_url=env.get("NATS_URL", "nats://127.0.0.1:4222"),
            database=database(env, SQLITE_FILE),
            pairing_interval_s=number(env, "PF_TOURNAMENTS_PAIRING_S", 1.0, float, 0.05),
            overtime_s=number(env, "PF_TOURNAMENTS_OVERTIME_S", 600.0, float, 0.0),
            open_timeout_s=number(env, "PF_TOURNAMENTS_OPEN_TIMEOUT_S", 5.0, float, 0.1),
            ack_wait_s=number(env, "PF_TOURNAMENTS_ACK_WAIT_S", 10.0, float, 0.1),
            log_level=env.get("PF_LOG_LEVEL", "INFO").upper(),
        )
