"""Guest session tokens: signed, expiring, self-contained. Pure: time is passed in.

A token is ``base64url(payload) "." base64url(HMAC-SHA256(key, payload))`` where the
payload is compact JSON ``{"p": player id, "n": display name, "e": expiry (unix s)}``.
The gateway alone holds the key; a token names a player and nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass

TTL_S = 24 * 3600
MAX_NAME_CHARS = 24


class InvalidToken(ValueError):
    """The token is malformed, forged or expired."""


@dataclass(frozen=True, slots=True)
class Identity:
    player_id: str
    name: str
    expires_at: int


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# The URL-safe alphabet alone, unpadded: the only spelling of a token this gateway issues.
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


def _unb64(text: str) -> bytes:
    """Decode unpadded base64url strictly: one spelling per byte string.

    The standard library skips characters outside the alphabet and takes ``+`` and ``/``
    for ``-`` and ``_``, so many strings would name one token; a token is refused unless
    it is spelled exactly as issued.

    Raises:
        ValueError: junk characters, padding, the standard alphabet, or stray bits.
    """
    if not _BASE64URL.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError("not unpadded base64url")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64(data) != text:
        raise ValueError("not the canonical spelling")
    return data


def clean_name(name: str) -> str:
    """Return a display name with surrounding space removed.

    Raises:
        ValueError: when it is empty, too long or has unprintable characters.
    """
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME_CHARS or not name.isprintable():
        raise ValueError(f"a display name is 1–{MAX_NAME_CHARS} printable characters, not {name!r}")
    return name


def issue(key: bytes, name: str, now_s: int, ttl_s: int = TTL_S) -> tuple[str, Identity]:
    """Return a fresh guest's token and identity."""
    identity = Identity("g_" + secrets.token_urlsafe(12), clean_name(name), now_s + ttl_s)
    payload = json.dumps(
        {"p": identity.player_id, "n": identity.name, "e": identity.expires_at},
        separators=(",", ":"),
        ensure_ascii=False,
    ).encode()
    signature = hmac.new(key, payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(signature)}", identity


def verify(key: bytes, token: str, now_s: int) -> Identity:
    """Return the identity a token names.

    Raises:
        InvalidToken: when it is malformed, its signature is wrong or it has expired.
    """
    try:
        payload_text, signature_text = token.split(".")
        payload, signature = _unb64(payload_text), _unb64(signature_text)
    except ValueError:
        raise InvalidToken("the token is not of the form payload.signature") from None
    expected = hmac.new(key, payload, hashlib.sha256).digest()
    if not hmac.compare_digest(signature, expected):
        raise InvalidToken("the token's signature does not match")
    try:
        fields = json.loads(payload)
        identity = Identity(str(fields["p"]), str(fields["n"]), int(fields["e"]))
    except (ValueError, KeyError, TypeError):
        raise InvalidToken("the token's payload is unreadable") from None
    if identity.expires_at <= now_s:
        raise InvalidToken("the token has expired; sign in again")
    return identity
