"""The accounts database: accounts, the sessions (devices) each one holds, refresh tokens.

A refresh token is 32 random bytes; only its SHA-256 is stored. Each use rotates it: the
token is marked used and a new one issued in the same transaction. A token used a second
time was copied, so its whole session ends (OAuth 2.0 Security BCP, refresh token reuse
detection) and every token of it is refused from then on.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from typing import Any

from services.accounts import migrations
from services.accounts.model import (
    REFRESH_TTL_S,
    Account,
    Device,
    Reason,
    Refused,
    SignedIn,
)
from services.common.database import Database, Session

MAX_DEVICE_CHARS = 120


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """The accounts database behind the event loop: each call is one unit of work."""

    def __init__(
        self,
        database: Database,
        clock: Callable[[], float] = time.time,
        refresh_ttl_s: float = REFRESH_TTL_S,
    ) -> None:
        self.database = database
        self._clock = clock
        self._ttl_s = refresh_ttl_s

    async def migrate(self) -> tuple[int, ...]:
        now = self._clock()
        return await self.database.run(lambda s: migrations.migrate(s, now))

    async def create(
        self, player_id: str, username: str, name_key: str, password_hash: str
    ) -> Account | None:
        """Create the account and return it; None when its name is taken.

        Raises:
            Refused: GUEST_CLAIMED, when ``player_id`` (a guest's) is an account already.
        """
        now = self._clock()
        return await self.database.run(
            lambda s: create(s, player_id, username, name_key, password_hash, now)
        )

    async def account(self, name_key: str) -> Account | None:
        return await self.database.run(lambda s: account_by_key(s, name_key))

    async def set_operator(self, name_key: str, operator: bool) -> Account | None:
        """Grant (or take away) the operator role; return the account (None: no such one)."""

        def write(session: Session) -> Account | None:
            with session.transaction():
                session.execute(
                    "UPDATE accounts SET operator = ? WHERE name_key = ?"
                    " AND deleted_unix_s IS NULL",
                    (int(operator), name_key),
                )
                found = _account(session, "name_key", name_key)
            return found if found is not None and not found.deleted else None

        return await self.database.run(write)

    async def operators(self) -> tuple[str, ...]:
        """The usernames of the accounts that hold the operator role."""
        rows = await self.database.run(
            lambda s: s.rows(
                "SELECT username FROM accounts WHERE operator = 1 AND deleted_unix_s IS NULL"
                " ORDER BY username"
            )
        )
        return tuple(str(name) for (name,) in rows)

    async def account_of(self, player_id: str) -> Account | None:
        return await self.database.run(lambda s: account_by_id(s, player_id))

    async def set_password_hash(self, player_id: str, password_hash: str) -> None:
        await self.database.run(lambda s: set_password_hash(s, player_id, password_hash))

    async def begin(self, account: Account, device: str) -> SignedIn:
        """Start a session for ``account`` on ``device``; return its first refresh token."""
        now = self._clock()
        return await self.database.run(lambda s: begin(s, account, device, now, self._ttl_s))

    async def refresh(self, token: str) -> SignedIn:
        """Rotate ``token``; see ``refresh``."""
        now = self._clock()
        return await self.database.run(lambda s: refresh(s, token, now, self._ttl_s))

    async def devices(self, player_id: str) -> tuple[Device, ...]:
        now = self._clock()
        return await self.database.run(lambda s: devices(s, player_id, now, self._ttl_s))

    async def end(self, player_id: str, session_id: str | None, reason: str) -> tuple[str, ...]:
        """End one session of the player (``None``: all of them); return those ended."""
        now = self._clock()
        return await self.database.run(lambda s: end(s, player_id, session_id, reason, now))

    async def delete(self, player_id: str) -> tuple[str, ...]:
        """Delete the account's sign-in; return the sessions that ended with it."""
        now = self._clock()
        return await self.database.run(lambda s: delete(s, player_id, now))


def create(
    session: Session,
    player_id: str,
    username: str,
    name_key: str,
    password_hash: str,
    now: float,
) -> Account | None:
    with session.transaction():
        if session.rows("SELECT 1 FROM accounts WHERE player_id = ?", (player_id,)):
            raise Refused(Reason.GUEST_CLAIMED, "this guest has signed up already: sign in")
        if session.rows("SELECT 1 FROM accounts WHERE name_key = ?", (name_key,)):
            return None
        # Two sign-ups racing past the check: the unique key turns the second away.
        added = session.execute(
            "INSERT INTO accounts (player_id, username, name_key, password_hash, created_unix_s)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (player_id, username, name_key, password_hash, now),
        )
    return Account(player_id, username, password_hash, False) if added == 1 else None


def account_by_key(session: Session, name_key: str) -> Account | None:
    return _account(session, "name_key", name_key)


def account_by_id(session: Session, player_id: str) -> Account | None:
    return _account(session, "player_id", player_id)


def _account(session: Session, column: str, value: str) -> Account | None:
    """The account whose ``column`` (a unique one, named here, never by a caller) is ``value``."""
    rows = session.rows(
        "SELECT player_id, username, password_hash, deleted_unix_s, operator FROM accounts"
        f" WHERE {column} = ?",
        (value,),
    )
    if not rows:
        return None
    player_id, username, password_hash, deleted, operator = rows[0]
    return Account(player_id, username, password_hash, deleted is not None, bool(operator))


def set_password_hash(session: Session, player_id: str, password_hash: str) -> None:
    session.execute(
        "UPDATE accounts SET password_hash = ? WHERE player_id = ? AND deleted_unix_s IS NULL",
        (password_hash, player_id),
    )


def begin(session: Session, account: Account, device: str, now: float, ttl_s: float) -> SignedIn:
    session_id = "s_" + secrets.token_urlsafe(12)
    token = secrets.token_urlsafe(32)
    with session.transaction():
        session.execute(
            "INSERT INTO sessions (session_id, player_id, device, created_unix_s,"
            " last_seen_unix_s) VALUES (?, ?, ?, ?, ?)",
            (session_id, account.player_id, device[:MAX_DEVICE_CHARS], now, now),
        )
        _issue(session, session_id, token, now)
    return SignedIn(
        account.player_id, account.username, session_id, token, now + ttl_s, account.operator
    )


def refresh(session: Session, token: str, now: float, ttl_s: float) -> SignedIn:
    """Mark ``token`` used and return its session's next token.

    Raises:
        Refused: REFRESH_UNKNOWN, REFRESH_EXPIRED, SESSION_ENDED, or REFRESH_REUSED (and
            the session is ended, in its own transaction, so the ending holds).
    """
    with session.transaction():
        found = _token_row(session, token_hash(token))
        if found is None:
            raise Refused(Reason.REFRESH_UNKNOWN, "this refresh token is not known")
        session_id, issued, used, ended, player_id, username, deleted, operator = found
        if ended is not None or deleted is not None:
            raise Refused(Reason.SESSION_ENDED, "this session was signed out")
        if used is None and issued + ttl_s <= now:
            raise Refused(Reason.REFRESH_EXPIRED, "this session has expired: sign in again")
        if used is None:
            session.execute(
                "UPDATE refresh_tokens SET used_unix_s = ? WHERE token_hash = ?",
                (now, token_hash(token)),
            )
            session.execute(
                "UPDATE sessions SET last_seen_unix_s = ? WHERE session_id = ?",
                (now, session_id),
            )
            fresh = secrets.token_urlsafe(32)
            _issue(session, session_id, fresh, now)
            return SignedIn(player_id, username, session_id, fresh, now + ttl_s, bool(operator))
    _end_sessions(session, (session_id,), "refresh_reused", now)
    raise Refused(
        Reason.REFRESH_REUSED,
        "this refresh token was used before: the session is ended, sign in again",
        {"ended_session_id": session_id},
    )


def devices(session: Session, player_id: str, now: float, ttl_s: float) -> tuple[Device, ...]:
    """The player's sessions that can still refresh, the most recently seen first."""
    rows = session.rows(
        "SELECT s.session_id, s.device, s.created_unix_s, s.last_seen_unix_s FROM sessions s"
        " WHERE s.player_id = ? AND s.ended_unix_s IS NULL AND EXISTS ("
        "  SELECT 1 FROM refresh_tokens t WHERE t.session_id = s.session_id"
        "  AND t.used_unix_s IS NULL AND t.issued_unix_s > ?)"
        " ORDER BY s.last_seen_unix_s DESC, s.session_id",
        (player_id, now - ttl_s),
    )
    return tuple(Device(str(r[0]), str(r[1]), float(r[2]), float(r[3])) for r in rows)


def end(
    session: Session, player_id: str, session_id: str | None, reason: str, now: float
) -> tuple[str, ...]:
    rows = session.rows(
        "SELECT session_id FROM sessions WHERE player_id = ? AND ended_unix_s IS NULL",
        (player_id,),
    )
    live = tuple(str(row[0]) for row in rows)
    chosen = live if session_id is None else tuple(s for s in live if s == session_id)
    if session_id is not None and not chosen:
        raise Refused(Reason.NO_SUCH_SESSION, "no such session is signed in")
    _end_sessions(session, chosen, reason, now)
    return chosen


def delete(session: Session, player_id: str, now: float) -> tuple[str, ...]:
    with session.transaction():
        session.execute(
            "UPDATE accounts SET deleted_unix_s = ?, password_hash = '' WHERE player_id = ?",
            (now, player_id),
        )
        # Its passkeys go too: a deleted account is signed in to by nothing.
        session.execute("DELETE FROM passkeys WHERE player_id = ?", (player_id,))
        rows = session.rows(
            "SELECT session_id FROM sessions WHERE player_id = ? AND ended_unix_s IS NULL",
            (player_id,),
        )
        ended = tuple(str(row[0]) for row in rows)
        _end_rows(session, ended, "account_deleted", now)
    return ended


def _issue(session: Session, session_id: str, token: str, now: float) -> None:
    session.execute(
        "INSERT INTO refresh_tokens (token_hash, session_id, issued_unix_s) VALUES (?, ?, ?)",
        (token_hash(token), session_id, now),
    )


def _token_row(session: Session, hashed: str) -> tuple[Any, ...] | None:
    rows = session.rows(
        "SELECT t.session_id, t.issued_unix_s, t.used_unix_s, s.ended_unix_s, a.player_id,"
        " a.username, a.deleted_unix_s, a.operator FROM refresh_tokens t"
        " JOIN sessions s ON s.session_id = t.session_id"
        " JOIN accounts a ON a.player_id = s.player_id WHERE t.token_hash = ?"
        + session.dialect.lock_rows,
        (hashed,),
    )
    return rows[0] if rows else None


def _end_sessions(session: Session, ids: tuple[str, ...], reason: str, now: float) -> None:
    with session.transaction():
        _end_rows(session, ids, reason, now)


def _end_rows(session: Session, ids: tuple[str, ...], reason: str, now: float) -> None:
    for session_id in ids:
        session.execute(
            "UPDATE sessions SET ended_unix_s = ?, ended_reason = ?"
            " WHERE session_id = ? AND ended_unix_s IS NULL",
            (now, reason, session_id),
        )
