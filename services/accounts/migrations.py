"""The accounts schema: its migrations, applied once each at start (services/common/migrations.py).

``accounts_schema_version`` records what was applied. Append new migrations; never edit an
old one.
"""

from __future__ import annotations

from services.common import migrations as runner
from services.common.database import Session
from services.common.migrations import Migration, Schema

# "pfac" (Photo Finish accounts) as the advisory lock key.
SCHEMA = Schema(version_table="accounts_schema_version", lock_key=0x70666163)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "accounts, their sessions, and each session's refresh tokens",
        (
            # name_key (names.key) makes look-alike names one name; the name is as typed.
            # A deleted account keeps its row and its name_key (its name is not reused),
            # with its password hash gone.
            """CREATE TABLE accounts (
                player_id TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                name_key TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                created_unix_s DOUBLE PRECISION NOT NULL,
                deleted_unix_s DOUBLE PRECISION
            )""",
            # One row per signed-in device: the family of refresh tokens it holds.
            """CREATE TABLE sessions (
                session_id TEXT PRIMARY KEY,
                player_id TEXT NOT NULL REFERENCES accounts (player_id),
                device TEXT NOT NULL,
                created_unix_s DOUBLE PRECISION NOT NULL,
                last_seen_unix_s DOUBLE PRECISION NOT NULL,
                ended_unix_s DOUBLE PRECISION,
                ended_reason TEXT NOT NULL DEFAULT ''
            )""",
            "CREATE INDEX sessions_by_player ON sessions (player_id, ended_unix_s)",
            # Only the SHA-256 of a refresh token is kept. A token is used once: used_unix_s
            # set means it was rotated, and a second use ends its whole session.
            """CREATE TABLE refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions (session_id),
                issued_unix_s DOUBLE PRECISION NOT NULL,
                used_unix_s DOUBLE PRECISION
            )""",
            "CREATE INDEX refresh_tokens_by_session ON refresh_tokens (session_id)",
        ),
    ),
    Migration(
        2,
        "passkeys, and the WebAuthn challenges waiting for an answer",
        (
            # A passkey's credential id and COSE public key, base64url; sign_count is the
            # authenticator's counter (0 for those that keep none, as most passkeys do).
            """CREATE TABLE passkeys (
                credential_id TEXT PRIMARY KEY,
                player_id TEXT NOT NULL REFERENCES accounts (player_id),
                public_key TEXT NOT NULL,
                sign_count BIGINT NOT NULL,
                name TEXT NOT NULL,
                added_unix_s DOUBLE PRECISION NOT NULL,
                last_used_unix_s DOUBLE PRECISION
            )""",
            "CREATE INDEX passkeys_by_player ON passkeys (player_id)",
            # A challenge is answered once: the row goes when it is answered or expires.
            # player_id is the account adding a passkey ('' for a sign-in).
            """CREATE TABLE passkey_challenges (
                challenge_id TEXT PRIMARY KEY,
                challenge TEXT NOT NULL,
                player_id TEXT NOT NULL,
                expires_unix_s DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_unix_s)",
        ),
    ),
    Migration(
        3,
        "whether the arena has been told of each deleted account (services/accounts/outbox.py)",
        (
            # 0 for the accounts deleted before: they are told at the next start.
            "ALTER TABLE accounts ADD COLUMN deletion_told INTEGER NOT NULL DEFAULT 0",
        ),
    ),
    Migration(
        4,
        "the operator role (the fair-play queue), granted by `python -m tools.operators`",
        ("ALTER TABLE accounts ADD COLUMN operator INTEGER NOT NULL DEFAULT 0",),
    ),
)


def migrate(
    session: Session, now_unix_s: float, migrations: tuple[Migration, ...] = MIGRATIONS
) -> tuple[int, ...]:
    """Apply the accounts migrations not yet applied; return their versions."""
    return runner.migrate(session, now_unix_s, SCHEMA, migrations)
