"""Signing up, in and out: names and passwords checked, the store asked, attempts counted."""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable

from services.accounts import names, passwords
from services.accounts.attempts import Attempts
from services.accounts.model import Device, Reason, Refused, SignedIn
from services.accounts.passwords import Hasher
from services.accounts.store import Store

MAX_DEVICE_CHARS = 120


class Signing:
    """The account flows, each from a checked request to the store's answer."""

    def __init__(
        self,
        store: Store,
        hasher: Hasher,
        clock: Callable[[], float] = time.time,
        on_failed_sign_in: Callable[[], None] = lambda: None,
        on_deleted: Callable[[], None] = lambda: None,
    ) -> None:
        self._store = store
        self._hasher = hasher
        self._clock = clock
        self._attempts = Attempts()
        self._on_failed = on_failed_sign_in
        self._on_deleted = on_deleted  # an account was deleted: the arena is to be told

    async def sign_up(
        self, username: str, password: str, device: str, guest_player_id: str
    ) -> SignedIn:
        """Create an account and its first session.

        Raises:
            names.BadName, passwords.BadPassword: the name or the password breaks the rules.
            Refused: TAKEN (the name, or a look-alike of it), GUEST_CLAIMED.
        """
        name = names.clean(username)
        passwords.check_new(password)
        player_id = guest_player_id or "a_" + secrets.token_urlsafe(12)
        hashed = await self._hasher.hash(password)
        account = await self._store.create(player_id, name, names.key(name), hashed)
        if account is None:
            raise Refused(Reason.TAKEN, f"the name {name!r} is taken: choose another")
        return await self._store.begin(account, device_name(device))

    async def sign_in(self, username: str, password: str, device: str, address: str) -> SignedIn:
        """Start a session for the account whose name and password these are.

        Raises:
            Refused: BAD_CREDENTIALS for an unknown name, a deleted account and a wrong
                password alike (each after one password check); TOO_MANY_ATTEMPTS.
        """
        try:
            key = names.key(names.clean(username))
        except names.BadName:
            key = ""  # no account has such a name: checked against the decoy like any other
        wait_s = self._attempts.wait_s(key, address, self._clock())
        if wait_s > 0:
            raise Refused(
                Reason.TOO_MANY_ATTEMPTS,
                "too many failed sign-ins: wait before trying again",
                {"retry_after_ms": str(math.ceil(wait_s * 1000))},
            )
        account = await self._store.account(key) if key else None
        stored = account.password_hash if account and not account.deleted else None
        right, rehash = await self._hasher.check(stored, password[: passwords.MAX_CHARS + 1])
        if not right or account is None:
            self._attempts.failed(key, address, self._clock())
            self._on_failed()
            raise Refused(Reason.BAD_CREDENTIALS, "that name and password do not match")
        self._attempts.succeeded(key, address)
        if rehash:
            await self._store.set_password_hash(
                account.player_id, await self._hasher.hash(password)
            )
        return await self._store.begin(account, device_name(device))

    async def refresh(self, token: str) -> SignedIn:
        return await self._store.refresh(token)

    async def devices(self, player_id: str) -> tuple[Device, ...]:
        return await self._store.devices(player_id)

    async def sign_out(self, player_id: str, session_id: str | None) -> tuple[str, ...]:
        reason = "signed_out" if session_id else "signed_out_everywhere"
        return await self._store.end(player_id, session_id, reason)

    async def delete(self, player_id: str, password: str) -> tuple[str, ...]:
        """Delete the account, its password asked again; return the sessions it ended.

        Raises:
            Refused: BAD_CREDENTIALS for a wrong password (or no such account).
        """
        account = await self._store.account_of(player_id)
        stored = account.password_hash if account and not account.deleted else None
        right, _ = await self._hasher.check(stored, password[: passwords.MAX_CHARS + 1])
        if not right:
            raise Refused(Reason.BAD_CREDENTIALS, "that password is not this account's")
        ended = await self._store.delete(player_id)
        self._on_deleted()
        return ended


def device_name(device: str) -> str:
    """What the client says it is, as printable text of a sensible length."""
    printable = "".join(c for c in device if c.isprintable())
    return " ".join(printable.split())[:MAX_DEVICE_CHARS] or "unknown device"
