"""The database schema as an ordered list of migrations, applied once each at start.

``schema_version`` records what was applied. The whole check-and-apply runs in one
transaction behind a lock (PostgreSQL: an advisory lock; SQLite: the write lock that
``BEGIN IMMEDIATE`` takes), so two processes starting at once apply each migration once
and the second finds nothing left to do. Append new migrations; never edit an old one.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.ratings.database import Session


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "ladder per game, results keyed by match id, history per player",
        (
            # One row per player per game, created by their first rated game.
            """CREATE TABLE ladder (
                game TEXT NOT NULL,
                player_id TEXT NOT NULL,
                name TEXT NOT NULL,
                rating DOUBLE PRECISION NOT NULL,
                rd DOUBLE PRECISION NOT NULL,
                volatility DOUBLE PRECISION NOT NULL,
                games INTEGER NOT NULL,
                wins INTEGER NOT NULL,
                losses INTEGER NOT NULL,
                last_played_unix_s DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (game, player_id)
            )""",
            "CREATE INDEX ladder_order ON ladder (game, rating DESC, games DESC)",
            # The exactly-once guard: a result is counted by the transaction that inserts
            # its match id here, and by no other.
            """CREATE TABLE results (
                match_id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                game TEXT NOT NULL,
                rated INTEGER NOT NULL,
                winner INTEGER,
                mode INTEGER,
                void_reason TEXT NOT NULL,
                figures TEXT NOT NULL,
                played_unix_s DOUBLE PRECISION NOT NULL
            )""",
            # One line per seat; rating_* NULL while the player has no rating.
            """CREATE TABLE history (
                match_id TEXT NOT NULL REFERENCES results (match_id),
                seat INTEGER NOT NULL,
                player_id TEXT NOT NULL,
                game TEXT NOT NULL,
                opponent_id TEXT NOT NULL,
                opponent_name TEXT NOT NULL,
                verdict TEXT NOT NULL,
                rated INTEGER NOT NULL,
                rating_before DOUBLE PRECISION,
                rating_after DOUBLE PRECISION,
                played_unix_s DOUBLE PRECISION NOT NULL,
                void_reason TEXT NOT NULL,
                PRIMARY KEY (match_id, seat)
            )""",
            "CREATE INDEX history_by_player ON history (player_id, game, played_unix_s)",
        ),
    ),
)

_VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_version (
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
        if session.dialect.lock_schema:
            session.execute(session.dialect.lock_schema)
        session.execute(_VERSION_TABLE)
        done = {row[0] for row in session.rows("SELECT version FROM schema_version")}
        applied = tuple(m.version for m in migrations if m.version not in done)
        for migration in migrations:
            if migration.version in done:
                continue
            for statement in migration.statements:
                session.execute(statement)
            session.execute(
                "INSERT INTO schema_version (version, description, applied_unix_s)"
                " VALUES (?, ?, ?)",
                (migration.version, migration.description, now_unix_s),
            )
    return applied


def schema_version(session: Session) -> int:
    """Return the highest migration applied (0 before any)."""
    rows = session.rows("SELECT MAX(version) FROM schema_version")
    return int(rows[0][0] or 0)
