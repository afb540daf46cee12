"""Reading a service's settings from the environment, refusing what it cannot use."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TypeVar

from services.common.callers import parse_callers
from services.common.database import Postgres, SqliteFile, Target
from services.common.serving import Listen

N = TypeVar("N", int, float)

# How long the arbitration holds a NATS write for the messages that follow it. At 100
# matches, against 1 ms, 2 ms took 8 – 10 % of every server process's CPU a command, and
# 3 ms another 2 – 4 %. The gateway writes each turn: its forwards carry the arrival stamps'
# clock. So do the rules: what they read comes in the arbitration's held writes already, and
# a hold of theirs took no CPU off, only added 1.5 – 2.5 ms to the p99. A command meets the
# hold twice (its stored command, its news): 3 + 3 ms where it was 2 + 2 + 2 with the rules',
# and the p99 command → both views stays where it was, 12 – 15 ms (docs/performance.md,
# "2026-12-07, midday").
HOT_PATH_COALESCE_MS = 3.0


class ConfigError(ValueError):
    """An environment variable holds a value the service cannot use."""


def number(env: Mapping[str, str], name: str, default: N, kind: type[N], least: N) -> N:
    """Return ``env[name]`` as a ``kind`` of at least ``least`` (``default`` when unset).

    Raises:
        ConfigError: for a value that is not such a number.
    """
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


def nats_coalesce_s(env: Mapping[str, str]) -> float:
    """Return how long the arbitration's NATS writes wait for the messages that follow:
    PF_NATS_COALESCE_MS (0: each event-loop turn's leave at its end).

    Raises:
        ConfigError: for a value that is not a number of at least 0.
    """
    return number(env, "PF_NATS_COALESCE_MS", HOT_PATH_COALESCE_MS, float, 0.0) / 1000


def database(env: Mapping[str, str], sqlite_file: str) -> Target:
    """Return where to store: ``sqlite_file`` under PF_DATA_DIR, or DATABASE_URL's PostgreSQL.

    Raises:
        ConfigError: for a DATABASE_URL that is neither empty nor ``postgresql://``.
    """
    url = env.get("DATABASE_URL", "")
    if not url:
        return SqliteFile(Path(env.get("PF_DATA_DIR", "var")) / sqlite_file)
    if url.startswith(("postgresql://", "postgres://")):
        return Postgres(url)
    raise ConfigError(
        f"DATABASE_URL={url.split('@')[-1]!r}: leave it empty for SQLite under PF_DATA_DIR"
        " or give a postgresql:// URL"
    )


def listen(env: Mapping[str, str]) -> Listen:
    """Return where a service listens: PF_HOST, PF_GRPC_PORT and PF_METRICS_PORT (0: any free).

    Raises:
        ConfigError: for a port that is not a number of at least 0, or a malformed
            PF_CALLERS.
    """
    text = env.get("PF_CALLERS", "")
    try:
        parse_callers(text)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    return Listen(
        host=env.get("PF_HOST", "127.0.0.1"),
        grpc_port=number(env, "PF_GRPC_PORT", 0, int, 0),
        metrics_port=number(env, "PF_METRICS_PORT", 0, int, 0),
        callers=text,
    )
