"""The tournaments schema as an ordered list of migrations, applied once each at start.

The same approach as the ratings store (services/ratings/migrations.py), with its own
version table and lock, so both services may share one PostgreSQL database. The
check-and-apply runs in one transaction behind a lock (PostgreSQL: an advisory lock;
SQLite: the write lock of ``BEGIN IMMEDIATE``). Append new migrations; never edit one.
"""

from __future__ import annotations

from services.ratings.database import Session
from services.ratings.migrations import Migration

# pg_advisory_xact_lock key of this schema's migrations: "pfto" as bytes.
MIGRATION_LOCK_KEY = 0x7066746F
VERSION_TABLE = "tournaments_schema_version"

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "tournaments, entrants, games keyed by match id, final standings",
        (
            """CREATE TABLE tournaments (
                tournament_id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                game INTEGER NOT NULL,
                rated INTEGER NOT NULL,
                starts_at_ms BIGINT NOT NULL,
                duration_s INTEGER NOT NULL,
                status INTEGER NOT NULL,
                created_by TEXT NOT NULL,
                created_at_ms BIGINT NOT NULL
            )""",
            "CREATE INDEX tournaments_by_status ON tournaments (status, starts_at_ms)",
            """CREATE TABLE entrants (
                tournament_id TEXT NOT NULL REFERENCES tournaments (tournament_id),
                player_id TEXT NOT NULL,
                name TEXT NOT NULL,
                joined_at_ms BIGINT NOT NULL,
                withdrawn INTEGER NOT NULL,
                PRIMARY KEY (tournament_id, player_id)
            )""",
            # The exactly-once guard: a result moves its game out of PLAYING once; a
            # redelivered result finds it moved already and changes nothing.
            """CREATE TABLE games (
                match_id TEXT PRIMARY KEY,
                tournament_id TEXT NOT NULL REFERENCES tournaments (tournament_id),
                player0 TEXT NOT NULL,
                player1 TEXT NOT NULL,
                paired_at_ms BIGINT NOT NULL,
                status INTEGER NOT NULL,
                winner INTEGER,
                ended_at_ms BIGINT
            )""",
            "CREATE INDEX games_by_tournament ON games (tournament_id, paired_at_ms)",
            """CREATE TABLE final_standings (
                tournament_id TEXT NOT NULL REFERENCES tournaments (tournament_id),
                rank INTEGER NOT NULL,
                player_id TEXT NOT NULL,
                name TEXT NOT NULL,
                points INTEGER NOT NULL,
                games INTEGER NOT NULL,
                wins INTEGER NOT NULL,
                streak INTEGER NOT NULL,
                sheet TEXT NOT NULL,
                reached_at_ms BIGINT NOT NULL,
                withdrawn INTEGER NOT NULL,
                PRIMARY KEY (tournament_id, rank)
            )""",
        ),
    ),
)

_CREATE_VERSION_TABLE = f"""CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (
    version INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_unix_s DOUBLE PRECISION NOT NULL
)"""


def migrate(
    session: Session, now_unix_s: float, migrations: tuple[Migration, ...] = MIGRATIONS
) -> tuple[int, ...]:
    """Apply the migrations not yet applied; return their versions (empty: up to date).

    Raises:
        ValueError: when ``migrations`` are not in strictly increasing version order.
    """
    versions = [m.version for m in migrations]
    if versions != sorted(set(versions)):
        raise ValueError(f"migration versions must increase strictly: {versions}")
    with session.transaction():
        if session.dialect.name == "postgresql":
            session.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
        session.execute(_CREATE_VERSION_TABLE)
        done = {row[0] for row in session.rows(f"SELECT version FROM {VERSION_TABLE}")}
        for migration in migrations:
            if migration.version in done:
                continue
            for statement in migration.statements:
                session.execute(statement)
            session.execute(
                f"INSERT INTO {VERSION_TABLE} (version, description, applied_unix_s)"
                " VALUES (?, ?, ?)",
                (migration.version, migration.description, now_unix_s),
            )
    return tuple(v for v in versions if v not in done)
