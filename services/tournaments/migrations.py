"""The tournaments schema: its migrations, applied once each at start.

Its own version table and lock key (services/common/migrations.py), so ratings and
tournaments may share one PostgreSQL database. Append new migrations; never edit one.
"""

from __future__ import annotations

from services.common import migrations as runner
from services.common.database import Session
from services.common.migrations import Migration, Schema

# "pfto" (Photo Finish tournaments) as the advisory lock key.
SCHEMA = Schema(version_table="tournaments_schema_version", lock_key=0x7066746F)

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
    Migration(
        2,
        "each tournament's creator by player id, for the cap on open tournaments",
        (
            # '' for every tournament before: made by nobody the cap counts.
            "ALTER TABLE tournaments ADD COLUMN creator_id TEXT NOT NULL DEFAULT ''",
            "CREATE INDEX tournaments_by_creator ON tournaments (creator_id, status)",
        ),
    ),
)


def migrate(
    session: Session, now_unix_s: float, migrations: tuple[Migration, ...] = MIGRATIONS
) -> tuple[int, ...]:
    """Apply the tournaments migrations not yet applied; return their versions."""
    return runner.migrate(session, now_unix_s, SCHEMA, migrations)


def schema_version(session: Session) -> int:
    """Return the highest tournaments migration applied (0 before any)."""
    return runner.schema_version(session, SCHEMA)
