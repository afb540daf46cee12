"""Session tokens: signed, expiring, self-contained. Pure: time is passed in.

A token is ``base64url(payload) "." base64url(HMAC-SHA256(key, payload))`` where the
payload is compact JSON ``{"p": player id, "n": name, "e": expiry (unix s), "k": key id}``,
and for an account's access token also ``"s"``: its session, and ``"a": 1`` (and
``"r": "operator"`` for an operator's). The gateways
alone hold the keys; a token names a player (and a session) and nothing else.

The keys are a ring (``KeyRing``): the first signs, every one verifies, so a new key can be
brought in without signing anyone out (docs/deploy.md, "The token key"). A token without
``"k"`` (issued before key ids) is checked with the key named ``"0"``: ``PF_TOKEN_KEY``'s.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass

TTL_S = 24 * 3600  # a guest's token
ACCESS_TTL_S = 10 * 60  # an account's access token; the page refreshes it before then
MAX_NAME_CHARS = 24
LEGACY_KEY_ID = "0"  # PF_TOKEN_KEY's, and that of a token that names no key
MAX_KEYS = 2  # the one that signs, and the one being brought in or retired
MIN_KEY_HEX = 32  # 128 bits; `openssl rand -hex 32` gives 64
_KEY_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
_HEX = re.compile(r"[0-9a-fA-F]+")


class InvalidToken(ValueError):
    """The token is malformed, forged or expired."""


@dataclass(frozen=True, slots=True)
class Identity:
    player_id: str
    name: str
    expires_at: int
    session_id: str = ""  # an account's session; "" for a guest
    account: bool = False  # an account's access token; False for a guest
    operator: bool = False  # the account held the operator role when the token was issued


@dataclass(frozen=True, slots=True)
class KeyRing:
    """The token keys by id: the first signs, every one verifies."""

    keys: tuple[tuple[str, bytes], ...]

    def __post_init__(self) -> None:
        if not self.keys:
            raise ValueError("a key ring holds one key at least")
        for key_id, key in self.keys:
            if not _KEY_ID.fullmatch(key_id) or not key:
                raise ValueError(f"a key id is 1-16 of A-Z a-z 0-9 _ - and has a key: {key_id!r}")
        ids = [key_id for key_id, _ in self.keys]
        if len(set(ids)) != len(ids):
            raise ValueError(f"a key id names one key: {ids!r}")

    @classmethod
    def parse(cls, text: str, variable: str = "PF_TOKEN_KEYS") -> KeyRing:
        """Return the ring ``id:hexkey[,id:hexkey]`` names, the first key the signing one.

        The HMAC key is the hex text itself, as ``PF_TOKEN_KEY``'s is, so ``0:<that key>``
        is the same key as ``PF_TOKEN_KEY``.

        Raises:
            ValueError: for no key or more than two, an entry that is not ``id:hexkey``, a
                malformed or repeated id, or a key of fewer than 32 hex digits. The message
                names ``variable`` and the id, never a key.
        """
        entries = [entry.strip() for entry in text.split(",")]
        if not 1 <= len(entries) <= MAX_KEYS:
            raise ValueError(f"{variable} holds one or two keys, id:hexkey[,id:hexkey]")
        keys = []
        for number, entry in enumerate(entries, 1):
            key_id, colon, secret = entry.partition(":")
            if not colon or not _KEY_ID.fullmatch(key_id):
                raise ValueError(
                    f"{variable}'s key {number} is not id:hexkey with an id of 1-16 of"
                    f" A-Z a-z 0-9 _ - (id {key_id!r})"
                )
            if not _HEX.fullmatch(secret) or len(secret) < MIN_KEY_HEX:
                raise ValueError(
                    f"{variable}'s key {key_id!r} is not {MIN_KEY_HEX} hex digits or more"
                    " (e.g. openssl rand -hex 32)"
                )
            keys.append((key_id, secret.encode()))
        return cls(tuple(keys))

    @property
    def signing(self) -> tuple[str, bytes]:
        return self.keys[0]

    def key(self, key_id: str) -> bytes | None:
        """Return the key named ``key_id``, or None when the ring has none of that id."""
        return next((key for kid, key in self.keys if kid == key_id), None)


Keys = KeyRing | bytes  # bytes: a ring of that one key, id "0"


def _ring(keys: Keys) -> KeyRing:
    return keys if isinstance(keys, KeyRing) else KeyRing(((LEGACY_KEY_ID, keys),))


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


def issue(keys: Keys, name: str, now_s: int, ttl_s: int = TTL_S) -> tuple[str, Identity]:
    """Return a fresh guest's token and identity."""
    identity = Identity("g_" + secrets.token_urlsafe(12), clean_name(name), now_s + ttl_s)
    return _signed(_ring(keys), identity), identity


def issue_access(
    keys: Keys,
    player_id: str,
    name: str,
    session_id: str,
    now_s: int,
    ttl_s: int = ACCESS_TTL_S,
    operator: bool = False,
) -> tuple[str, Identity]:
    """Return an account's access token for ``session_id``, and the identity it names.

    ``player_id`` is the accounts service's, whatever its form (a guest's is ``g_…``).
    ``operator``: the account holds the operator role; a role taken away lasts on its
    tokens until they expire (``ACCESS_TTL_S``).
    """
    identity = Identity(player_id, name, now_s + ttl_s, session_id, account=True, operator=operator)
    return _signed(_ring(keys), identity), identity


def _signed(ring: KeyRing, identity: Identity) -> str:
    key_id, key = ring.signing
    fields: dict[str, object] = {
        "p": identity.player_id,
        "n": identity.name,
        "e": identity.expires_at,
        "k": key_id,
    }
    if identity.account:
        fields["s"] = identity.session_id
        fields["a"] = 1
        if identity.operator:
            fields["r"] = "operator"
    payload = json.dumps(fields, separators=(",", ":"), ensure_ascii=False).encode()
    signature = hmac.new(key, payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(signature)}"


def verify(keys: Keys, token: str, now_s: int) -> Identity:
    """Return the identity a token names.

    Raises:
        InvalidToken: when it is malformed, names no key of the ring, its signature is
            wrong or it has expired.
    """
    try:
        payload_text, signature_text = token.split(".")
        payload, signature = _unb64(payload_text), _unb64(signature_text)
    except ValueError:
        raise InvalidToken("the token is not of the form payload.signature") from None
    try:
        fields = json.loads(payload)
    except ValueError:
        fields = None  # refused below, once its signature is checked
    named = fields.get("k", LEGACY_KEY_ID) if isinstance(fields, dict) else LEGACY_KEY_ID
    key = _ring(keys).key(str(named))
    if key is None:
        raise InvalidToken("the token's signature does not match")
    expected = hmac.new(key, payload, hashlib.sha256).digest()
    if not hmac.compare_digest(signature, expected):
        raise InvalidToken("the token's signature does not match")
    if not isinstance(fields, dict):
        raise InvalidToken("the token's payload is unreadable")
    try:
        identity = Identity(
            str(fields["p"]),
            str(fields["n"]),
            int(fields["e"]),
            str(fields.get("s", "")),
            fields.get("a") == 1,
            fields.get("a") == 1 and fields.get("r") == "operator",
        )
    except (ValueError, KeyError, TypeError):
        raise InvalidToken("the token's payload is unreadable") from None
    if identity.expires_at <= now_s:
        raise InvalidToken("the token has expired; sign in again")
    return identity
