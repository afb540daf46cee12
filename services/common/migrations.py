"""A service's schema as an ordered list of migrations, applied once each at start.

Each service keeps its own version table and lock key, so several services may share one
PostgreSQL database. The whole check-and-apply runs in one transaction behind a lock
(PostgreSQL: an advisory lock; SQLite: the write lock that ``BEGIN IMMEDIATE`` takes), so
two processes starting at once apply each migration once and the second finds nothing
left to do. Append new migrations; never edit an old one.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.common.database import Session


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    statements: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Schema:
    """Where a service records its migrations, and the key that serialises them."""

    version_table: str
    lock_key: int  # pg_advisory_xact_lock key: four ASCII bytes naming the service


def migrate(
    session: Session, now_unix_s: float, schema: Schema, migrations: tuple[Migration, ...]
) -> tuple[int, ...]:
    """Apply the migrations not yet applied; return their versions (empty: up to date).

    Raises:
        ValueError: when ``migrations`` are not in strictly increasing version order.
    """
    versions = [m.version for m in migrations]
    if versions != sorted(set(versions)):
        raise ValueError(f"migration versions must increase strictly: {versions}")
    table = schema.version_table
    with session.transaction():
        lock = session.dialect.lock_schema(schema.lock_key)
        if lock:
            session.execute(lock)
        session.execute(
            f"CREATE TABLE IF NOT EXISTS {table} ("
            " version INTEGER PRIMARY KEY,"
            " description TEXT NOT NULL,"
            " applied_unix_s DOUBLE PRECISION NOT NULL)"
        )
        done = {row[0] for row in session.rows(f"SELECT version FROM {table}")}
        for migration in migrations:
            if migration.version in done:
                continue
            for statement in migration.statements:
                session.execute(statement)
            session.execute(
                f"INSERT INTO {table} (version, description, applied_unix_s) VALUES (?, ?, ?)",
                (migration.version, migration.description, now_unix_s),
            )
    return tuple(v for v in versions if v not in done)


def schema_version(session: Session, schema: Schema) -> int:
    """Return the highest migration applied (0 before any)."""
    rows = session.rows(f"SELECT MAX(version) FROM {schema.version_table}")
    return int(rows[0][0] or 0)
