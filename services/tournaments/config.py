"""The tournaments service's configuration, read from the environment in one place."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from services.common.serving import Listen
from services.ratings.database import Postgres, SqliteFile, Target

SQLITE_FILE = "tournaments.sqlite3"
N = TypeVar("N", int, float)


class ConfigError(ValueError):
    """An environment variable holds a value the service cannot use."""


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the process needs; built once, by ``from_env``."""

    listen: Listen
    nats_url: str
    database: Target
    pairing_interval_s: float = 1.0  # a pairing round this often while a tournament is live
    overtime_s: float = 600.0  # after the end, how long games in progress may still finish
    open_timeout_s: float = 5.0  # how long arbitration may take to open a match
    ack_wait_s: float = 10.0  # JetStream redelivers an unacked result after this long
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Return the configuration from ``env`` (default: the process environment).

        Raises:
            ConfigError: for a malformed number or database URL.
        """
        env = os.environ if env is None else env
        return cls(
            listen=Listen(
                host=env.get("PF_HOST", "127.0.0.1"),
                grpc_port=_number(env, "PF_GRPC_PORT", 0, int, 0),
                metrics_port=_number(env, "PF_METRICS_PORT", 0, int, 0),
            ),
            nats_url=env.get("NATS_URL", "nats://127.0.0.1:4222"),
            database=database_target(
                env.get("DATABASE_URL", ""), Path(env.get("PF_DATA_DIR", "var"))
            ),
            pairing_interval_s=_number(env, "PF_TOURNAMENTS_PAIRING_S", 1.0, float, 0.05),
            overtime_s=_number(env, "PF_TOURNAMENTS_OVERTIME_S", 600.0, float, 0.0),
            open_timeout_s=_number(env, "PF_TOURNAMENTS_OPEN_TIMEOUT_S", 5.0, float, 0.1),
            ack_wait_s=_number(env, "PF_TOURNAMENTS_ACK_WAIT_S", 10.0, float, 0.1),
            log_level=env.get("PF_LOG_LEVEL", "INFO").upper(),
        )


def database_target(url: str, data_dir: Path) -> Target:
    """Return where to store: SQLite under ``data_dir`` for an empty URL, else PostgreSQL.

    Raises:
        ConfigError: for a URL that is neither empty nor ``postgresql://``.
    """
    if not url:
        return SqliteFile(data_dir / SQLITE_FILE)
    if url.startswith(("postgresql://", "postgres://")):
        return Postgres(url)
    raise ConfigError(
        f"DATABASE_URL={url.split('@')[-1]!r}: leave it empty for SQLite under PF_DATA_DIR"
        " or give a postgresql:// URL"
    )


def _number(env: Mapping[str, str], name: str, default: N, kind: type[N], least: N) -> N:
    text = env.get(name, "")
    if not text:
        return default
    try:
        value = kind(text)
    except ValueError:
        raise ConfigError(f"{name}={text!r} is not a {kind.__name__}") from None
    if value < least:
        raise ConfigError(f"{name}={text!r} is below {least}")
    return value
