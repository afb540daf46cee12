"""Passkeys in the accounts database: each account's WebAuthn credentials, and the
challenges handed out and not yet answered.

A challenge is taken (deleted) by the answer that uses it, in one transaction, so an
answer sent twice, a replayed assertion included, finds no challenge the second time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from services.common.database import Database, Session

CHALLENGE_TTL_S = 300.0
MAX_NAME_CHARS = 60


@dataclass(frozen=True, slots=True)
class Passkey:
    credential_id: str  # base64url
    name: str
    added_unix_s: float
    last_used_unix_s: float  # 0: never used to sign in


@dataclass(frozen=True, slots=True)
class Holder:
    """A stored passkey as a sign-in needs it: its key, its counter, and its account."""

    credential_id: str
    public_key: str  # base64url of the COSE key
    sign_count: int
    player_id: str
    username: str
    operator: bool = False


@dataclass(frozen=True, slots=True)
class Challenge:
    challenge: str  # base64url of the bytes the authenticator signed over
    player_id: str  # the account adding a passkey; "" for a sign-in


class Credentials:
    """The passkey tables behind the event loop: each call is one unit of work."""

    def __init__(self, database: Database, clock: Callable[[], float] = time.time) -> None:
        self._database = database
        self._clock = clock

    async def offer(self, challenge_id: str, challenge: Challenge) -> None:
        """Keep ``challenge`` for CHALLENGE_TTL_S (and forget those whose time is up)."""
        now = self._clock()
        await self._database.run(lambda s: offer(s, challenge_id, challenge, now))

    async def take(self, challenge_id: str) -> Challenge | None:
        """Return the challenge and forget it; None if unknown, answered or expired."""
        now = self._clock()
        return await self._database.run(lambda s: take(s, challenge_id, now))

    async def add(
        self, player_id: str, credential_id: str, public_key: str, sign_count: int, name: str
    ) -> Passkey | None:
        """Store a passkey of the account; None when that credential is stored already."""
        now = self._clock()
        passkey = Passkey(credential_id, name[:MAX_NAME_CHARS], now, 0.0)
        added = await self._database.run(
            lambda s: add(s, player_id, passkey, public_key, sign_count)
        )
        return passkey if added else None

    async def of(self, player_id: str) -> tuple[Passkey, ...]:
        return await self._database.run(lambda s: passkeys_of(s, player_id))

    async def remove(self, player_id: str, credential_id: str) -> bool:
        return await self._database.run(lambda s: remove(s, player_id, credential_id))

    async def holder(self, credential_id: str) -> Holder | None:
        """The passkey and its account; None if unknown, removed, or its account deleted."""
        return await self._database.run(lambda s: holder(s, credential_id))

    async def used(self, credential_id: str, sign_count: int) -> None:
        now = self._clock()
        await self._database.run(lambda s: used(s, credential_id, sign_count, now))


def offer(session: Session, challenge_id: str, challenge: Challenge, now: float) -> None:
    with session.transaction():
        session.execute("DELETE FROM passkey_challenges WHERE expires_unix_s <= ?", (now,))
        session.execute(
            "INSERT INTO passkey_challenges (challenge_id, challenge, player_id, expires_unix_s)"
            " VALUES (?, ?, ?, ?)",
            (challenge_id, challenge.challenge, challenge.player_id, now + CHALLENGE_TTL_S),
        )


def take(session: Session, challenge_id: str, now: float) -> Challenge | None:
    with session.transaction():
        rows = session.rows(
            "SELECT challenge, player_id, expires_unix_s FROM passkey_challenges"
            " WHERE challenge_id = ?" + session.dialect.lock_rows,
            (challenge_id,),
        )
        if not rows:
            return None
        session.execute("DELETE FROM passkey_challenges WHERE challenge_id = ?", (challenge_id,))
    challenge, player_id, expires = rows[0]
    return Challenge(str(challenge), str(player_id)) if expires > now else None


def add(
    session: Session, player_id: str, passkey: Passkey, public_key: str, sign_count: int
) -> bool:
    added = session.execute(
        "INSERT INTO passkeys (credential_id, player_id, public_key, sign_count, name,"
        " added_unix_s) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (
            passkey.credential_id,
            player_id,
            public_key,
            sign_count,
            passkey.name,
            passkey.added_unix_s,
        ),
    )
    return added == 1


def passkeys_of(session: Session, player_id: str) -> tuple[Passkey, ...]:
    rows = session.rows(
        "SELECT credential_id, name, added_unix_s, last_used_unix_s FROM passkeys"
        " WHERE player_id = ? ORDER BY added_unix_s DESC, credential_id",
        (player_id,),
    )
    return tuple(Passkey(str(r[0]), str(r[1]), float(r[2]), float(r[3] or 0.0)) for r in rows)


def remove(session: Session, player_id: str, credential_id: str) -> bool:
    removed = session.execute(
        "DELETE FROM passkeys WHERE player_id = ? AND credential_id = ?",
        (player_id, credential_id),
    )
    return removed == 1


def holder(session: Session, credential_id: str) -> Holder | None:
    rows = session.rows(
        "SELECT p.credential_id, p.public_key, p.sign_count, a.player_id, a.username,"
        " a.operator"
        " FROM passkeys p JOIN accounts a ON a.player_id = p.player_id"
        " WHERE p.credential_id = ? AND a.deleted_unix_s IS NULL",
        (credential_id,),
    )
    if not rows:
        return None
    found, public_key, sign_count, player_id, username, operator = rows[0]
    return Holder(
        str(found), str(public_key), int(sign_count), str(player_id), str(username), bool(operator)
    )


def used(session: Session, credential_id: str, sign_count: int, now: float) -> None:
    session.execute(
        "UPDATE passkeys SET sign_count = ?, last_used_unix_s = ? WHERE credential_id = ?",
        (sign_count, now, credential_id),
    )
