"""Passkeys (WebAuthn): adding one to an account, and signing in with it.

Each flow is two calls: a challenge, whose options the page hands to
``navigator.credentials``, then the authenticator's answer, checked here by ``webauthn``
(py_webauthn) against the challenge, the origin and the RP ID. Passkeys are discoverable
(a resident key): signing in needs no username, the authenticator says whose it is.

The origin is the page's, as the gateway serves it (its configuration); the RP ID is the
origin's host, which must be a name (``localhost``, ``arena.example``), never an address.
A passkey sign-in does not count against the password back-off: it is what still works
when someone is guessing the password.
"""

from __future__ import annotations

import ipaddress
import secrets
from urllib.parse import urlsplit

import webauthn
from webauthn.helpers import bytes_to_base64url, parse_authentication_credential_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from services.accounts.credentials import Challenge, Credentials, Passkey
from services.accounts.model import Account, Reason, Refused, SignedIn
from services.accounts.signing import device_name
from services.accounts.store import Store

RP_NAME = "Photo Finish"
TIMEOUT_MS = 120_000
MAX_CREDENTIAL_CHARS = 16_384  # a passkey's answer is about 1 KB; attestation adds some


class Passkeys:
    """The passkey flows, each from a checked request to the store's answer."""

    def __init__(self, credentials: Credentials, store: Store) -> None:
        self._credentials = credentials
        self._store = store

    async def begin_adding(self, player_id: str, origin: str) -> tuple[str, str]:
        """Return (challenge id, creation options as JSON) for a new passkey of the account.

        Raises:
            Refused: BAD_ORIGIN; SESSION_ENDED when the account is gone.
        """
        rp_id = _rp_id(origin)
        account = await self._store.account_of(player_id)
        if account is None or account.deleted:
            raise Refused(Reason.SESSION_ENDED, "this account is deleted")
        held = await self._credentials.of(player_id)
        options = webauthn.generate_registration_options(
            rp_id=rp_id,
            rp_name=RP_NAME,
            user_id=player_id.encode(),
            user_name=account.username,
            timeout=TIMEOUT_MS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            # The authenticator refuses to make a second passkey for the same account.
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(p.credential_id))
                for p in held
            ],
        )
        challenge_id = await self._offer(options.challenge, player_id)
        return challenge_id, webauthn.options_to_json(options)

    async def add(
        self, player_id: str, origin: str, challenge_id: str, answer: str, name: str
    ) -> Passkey:
        """Check the authenticator's answer to the challenge; store the passkey it made.

        Raises:
            Refused: BAD_ORIGIN, CHALLENGE_UNKNOWN, PASSKEY_REFUSED.
        """
        rp_id = _rp_id(origin)
        name = device_name(name)
        challenge = await self._take(challenge_id, player_id)
        try:
            made = webauthn.verify_registration_response(
                credential=_bounded(answer),
                expected_challenge=webauthn.base64url_to_bytes(challenge.challenge),
                expected_rp_id=rp_id,
                expected_origin=origin,
            )
        except WebAuthnException as error:
            raise Refused(
                Reason.PASSKEY_REFUSED, f"this passkey was not made right: {error}"
            ) from None
        passkey = await self._credentials.add(
            player_id,
            bytes_to_base64url(made.credential_id),
            bytes_to_base64url(made.credential_public_key),
            made.sign_count,
            name,
        )
        if passkey is None:
            raise Refused(Reason.PASSKEY_REFUSED, "this passkey is registered already")
        return passkey

    async def begin_sign_in(self, origin: str) -> tuple[str, str]:
        """Return (challenge id, request options as JSON) for signing in with any passkey."""
        options = webauthn.generate_authentication_options(
            rp_id=_rp_id(origin),
            timeout=TIMEOUT_MS,
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        challenge_id = await self._offer(options.challenge, "")
        return challenge_id, webauthn.options_to_json(options)

    async def sign_in(self, origin: str, challenge_id: str, answer: str, device: str) -> SignedIn:
        """Check a passkey's signature over the challenge; start a session of its account.

        Raises:
            Refused: BAD_ORIGIN, CHALLENGE_UNKNOWN (a replayed answer included),
                PASSKEY_UNKNOWN (never added, removed, or its account deleted),
                PASSKEY_REFUSED (a wrong origin, RP ID or signature; a counter gone back).
        """
        rp_id = _rp_id(origin)
        challenge = await self._take(challenge_id, "")
        try:
            parsed = parse_authentication_credential_json(_bounded(answer))
        except WebAuthnException as error:
            raise Refused(Reason.PASSKEY_REFUSED, f"this answer is malformed: {error}") from None
        holder = await self._credentials.holder(bytes_to_base64url(parsed.raw_id))
        if holder is None:
            raise Refused(Reason.PASSKEY_UNKNOWN, "this passkey is not on any account")
        handle = parsed.response.user_handle
        if handle is not None and handle != holder.player_id.encode():
            raise Refused(Reason.PASSKEY_REFUSED, "this passkey names another account")
        try:
            checked = webauthn.verify_authentication_response(
                credential=parsed,
                expected_challenge=webauthn.base64url_to_bytes(challenge.challenge),
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=webauthn.base64url_to_bytes(holder.public_key),
                credential_current_sign_count=holder.sign_count,
            )
        except WebAuthnException as error:
            raise Refused(
                Reason.PASSKEY_REFUSED, f"this passkey's answer is wrong: {error}"
            ) from None
        await self._credentials.used(holder.credential_id, checked.new_sign_count)
        account = Account(holder.player_id, holder.username, "", False, holder.operator)
        return await self._store.begin(account, device_name(device))

    async def of(self, player_id: str) -> tuple[Passkey, ...]:
        return await self._credentials.of(player_id)

    async def remove(self, player_id: str, credential_id: str) -> tuple[Passkey, ...]:
        """Remove one of the account's passkeys; return those left.

        Raises:
            Refused: PASSKEY_UNKNOWN, when the account holds no such passkey.
        """
        if not await self._credentials.remove(player_id, credential_id):
            raise Refused(Reason.PASSKEY_UNKNOWN, "this account holds no such passkey")
        return await self._credentials.of(player_id)

    async def _offer(self, challenge: bytes, player_id: str) -> str:
        challenge_id = "c_" + secrets.token_urlsafe(16)
        await self._credentials.offer(
            challenge_id, Challenge(bytes_to_base64url(challenge), player_id)
        )
        return challenge_id

    async def _take(self, challenge_id: str, player_id: str) -> Challenge:
        """The challenge, used up now; refused unless it was offered to ``player_id``."""
        challenge = await self._credentials.take(challenge_id)
        if challenge is None or challenge.player_id != player_id:
            raise Refused(
                Reason.CHALLENGE_UNKNOWN,
                "this challenge is unknown, answered already or expired: start again",
            )
        return challenge


def _rp_id(origin: str) -> str:
    """The RP ID for ``origin``: its host, a name.

    Raises:
        Refused: BAD_ORIGIN for anything but http(s)://name[:port].
    """
    parts = urlsplit(origin)
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host or parts.path or parts.query:
        raise Refused(Reason.BAD_ORIGIN, f"{origin!r} is not an origin")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return host
    raise Refused(
        Reason.BAD_ORIGIN,
        f"passkeys need a name, not an address: open the arena at http://localhost, not {host}",
    )


def _bounded(answer: str) -> str:
    if len(answer) > MAX_CREDENTIAL_CHARS:
        raise Refused(Reason.PASSKEY_REFUSED, "this answer is too long to be a passkey's")
    return answer
