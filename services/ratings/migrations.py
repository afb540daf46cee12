"""The ratings schema: its migrations, applied once each at start (services/common/migrations.py).

``schema_version`` records what was applied. Append new migrations; never edit an old one.
"""

from __future__ import annotations

from services.common import migrations as runner
from services.common.database import Session
from services.common.migrations import Migration, Schema

# "pfra" (Photo Finish ratings) as the advisory lock key.
SCHEMA = Schema(version_table="schema_version", lock_key=0x70667261)

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
    Migration(
        2,
        "why a rated match did not count toward ratings",
        (
            # '' for every line before: each one counted, or was not rated at all.
            "ALTER TABLE history ADD COLUMN uncounted_reason TEXT NOT NULL DEFAULT ''",
        ),
    ),
    Migration(
        3,
        "guests marked on ladders and history lines; deleted accounts' names forgotten",
        (
            "ALTER TABLE ladder ADD COLUMN guest INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE ladder ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE history ADD COLUMN opponent_guest INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE history ADD COLUMN opponent_deleted INTEGER NOT NULL DEFAULT 0",
            # Rows from before were not told apart, and cannot be for sure: the gateway has
            # always given a guest the id "g_" + random, and an account "a_" + random unless
            # it was made from a guest, which keeps its "g_" id. So "g_" is taken as a guest.
            # The one error this can make: such an account shows as a guest until its next
            # counted rated game refreshes its ladder row (its opponents' old lines keep the
            # mark); nobody who played as a guest shows as an account. substr, not LIKE:
            # "_" is LIKE's wildcard, and both databases spell substr alike.
            "UPDATE ladder SET guest = 1 WHERE substr(player_id, 1, 2) = 'g_'",
            "UPDATE history SET opponent_guest = 1 WHERE substr(opponent_id, 1, 2) = 'g_'",
            # The players whose accounts were deleted: a result recorded for one of them
            # later (a match that was being played) is written with the name blank.
            """CREATE TABLE deleted_players (
                player_id TEXT PRIMARY KEY,
                deleted_unix_s DOUBLE PRECISION NOT NULL
            )""",
            # A deletion blanks the player's name on every ladder and in every opponent's
            # line: found by player id.
            "CREATE INDEX ladder_by_player ON ladder (player_id)",
            "CREATE INDEX history_by_opponent ON history (opponent_id)",
        ),
    ),
    Migration(
        4,
        "fair play: reactions and races of rated Spit games, flags, reports, marks, the log",
        (
            # The exactly-once guard of the fair-play reader: a match's measurements are
            # stored by the transaction that inserts its id here, and by no other.
            """CREATE TABLE fairplay_matches (
                match_id TEXT PRIMARY KEY,
                played_unix_s DOUBLE PRECISION NOT NULL
            )""",
            # One row per accepted Spit play of a rated match: its reaction, and whether the
            # player's own previous play made it possible (a chain) or not (an answer).
            """CREATE TABLE reactions (
                match_id TEXT NOT NULL,
                entry_index INTEGER NOT NULL,
                player_id TEXT NOT NULL,
                ms DOUBLE PRECISION NOT NULL,
                chain INTEGER NOT NULL,
                played_unix_s DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (match_id, entry_index)
            )""",
            "CREATE INDEX reactions_by_player ON reactions (player_id, played_unix_s)",
            # One row per race per player who ran it (the refused entry's index).
            """CREATE TABLE races (
                match_id TEXT NOT NULL,
                entry_index INTEGER NOT NULL,
                player_id TEXT NOT NULL,
                won INTEGER NOT NULL,
                gap_ms DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (match_id, entry_index, player_id)
            )""",
            "CREATE INDEX races_by_player ON races (player_id)",
            # The operators' queue: one open flag per player at most; settled ones are kept.
            """CREATE TABLE flags (
                flag_id TEXT PRIMARY KEY,
                player_id TEXT NOT NULL,
                opened_unix_s DOUBLE PRECISION NOT NULL,
                reactions_why TEXT NOT NULL,
                state TEXT NOT NULL,
                settled_unix_s DOUBLE PRECISION,
                settled_by TEXT NOT NULL,
                settled_why TEXT NOT NULL
            )""",
            "CREATE INDEX flags_by_player ON flags (player_id, state)",
            "CREATE INDEX flags_by_state ON flags (state, opened_unix_s)",
            # A player's report of the opponent at the end of a match: once per match.
            """CREATE TABLE reports (
                match_id TEXT NOT NULL,
                reporter_id TEXT NOT NULL,
                reported_id TEXT NOT NULL,
                reason TEXT NOT NULL,
                reported_unix_s DOUBLE PRECISION NOT NULL,
                flag_id TEXT NOT NULL,
                PRIMARY KEY (match_id, reporter_id)
            )""",
            "CREATE INDEX reports_by_reporter ON reports (reporter_id, reported_unix_s)",
            "CREATE INDEX reports_by_flag ON reports (flag_id)",
            # Marked accounts: no rated play, off the ladders.
            """CREATE TABLE marked_players (
                player_id TEXT PRIMARY KEY,
                marked_unix_s DOUBLE PRECISION NOT NULL
            )""",
            # Every operator's action: who took it, on whom, and why.
            """CREATE TABLE moderation_log (
                at_unix_s DOUBLE PRECISION NOT NULL,
                operator_id TEXT NOT NULL,
                operator_name TEXT NOT NULL,
                action TEXT NOT NULL,
                player_id TEXT NOT NULL,
                flag_id TEXT NOT NULL,
                why TEXT NOT NULL
            )""",
            "CREATE INDEX moderation_by_player ON moderation_log (player_id, at_unix_s)",
        ),
    ),
)


def migrate(
    session: Session, now_unix_s: float, migrations: tuple[Migration, ...] = MIGRATIONS
) -> tuple[int, ...]:
    """Apply the ratings migrations not yet applied; return their versions."""
    return runner.migrate(session, now_unix_s, SCHEMA, migrations)


def schema_version(session: Session) -> int:
    """Return the highest ratings migration applied (0 before any)."""
    return runner.schema_version(session, SCHEMA)
