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
    Migration(
        3,
        "guests marked among the entrants; deleted accounts' names forgotten",
        (
            "ALTER TABLE entrants ADD COLUMN guest INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE entrants ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0",
            # Entrants from before were not told apart. The gateway has always given a
            # guest the id "g_" + random, and an account "a_" + random unless it was made
            # from a guest, which keeps its "g_" id: so "g_" is taken as a guest. The one
            # error this can make: such an account's entries made after it signed up show
            # as a guest's; nobody who joined as a guest shows as an account. substr, not
            # LIKE: "_" is LIKE's wildcard, and both databases spell substr alike.
            "UPDATE entrants SET guest = 1 WHERE substr(player_id, 1, 2) = 'g_'",
            # The players whose accounts were deleted: a name written again for one of
            # them (a join, final standings) is written blank. Named for its service:
            # the services may share one PostgreSQL database (docker-compose.yml's do).
            """CREATE TABLE tournaments_deleted_players (
                player_id TEXT PRIMARY KEY,
                deleted_unix_s DOUBLE PRECISION NOT NULL
            )""",
            # A deletion blanks the player's name in every tournament: found by player id.
            "CREATE INDEX entrants_by_player ON entrants (player_id)",
            "CREATE INDEX final_standings_by_player ON final_standings (player_id)",
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
