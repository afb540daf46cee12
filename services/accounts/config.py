"""The accounts service's configuration, read from the environment in one place."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from services.common import settings
from services.common.database import Target
from services.common.serving import Listen
from services.common.settings import database, number

SQLITE_FILE = "accounts.sqlite3"


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the process needs; built once, by ``from_env``."""

    listen: Listen
    database: Target
    log_level: str = "INFO"
    # argon2id's cost (OWASP's first configuration); tests lower it, never production.
    argon2_time_cost: int = 2
    argon2_memory_kib: int = 19 * 1024
    hash_threads: int = 2  # password hashes at once, each on a thread of its own
    # NATS, to tell the arena of deleted accounts (services/accounts/outbox.py); sign-in
    # never needs it.
    nats_url: str = "nats://127.0.0.1:4222"
    tell_retry_s: float = 5.0  # NATS away: try telling what is owed again after this

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Return the configuration from ``env`` (default: the process environment).

        Raises:
            ConfigError: for a malformed number or database URL.
        """
        env = os.environ if env is None else env
        return cls(
            listen=settings.listen(env),
            database=database(env, SQLITE_FILE),
            log_level=env.get("PF_LOG_LEVEL", "INFO").upper(),
            argon2_time_cost=number(env, "PF_ARGON2_TIME_COST", 2, int, 1),
            argon2_memory_kib=number(env, "PF_ARGON2_MEMORY_KIB", 19 * 1024, int, 8),
            hash_threads=number(env, "PF_HASH_THREADS", 2, int, 1),
            nats_url=env.get("NATS_URL", "nats://127.0.0.1:4222"),
            tell_retry_s=number(env, "PF_TELL_RETRY_S", 5.0, float, 0.01),
        )
