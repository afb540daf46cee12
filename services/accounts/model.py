"""What the accounts service keeps and answers: accounts, devices, and why it refuses."""

from __future__ import annotations

import enum
from dataclasses import dataclass

REFRESH_TTL_S = 30 * 24 * 3600  # a refresh token unused this long no longer signs in


class Reason(enum.Enum):
    """Why the accounts service refuses a call; the value is the reason a client sees."""

    TAKEN = "taken"  # sign-up only: the one answer that says a name exists
    GUEST_CLAIMED = "guest_claimed"  # this guest has become an account already
    BAD_CREDENTIALS = "bad_credentials"  # an unknown name and a wrong password alike
    REFRESH_UNKNOWN = "refresh_unknown"  # never issued, or its session is gone
    REFRESH_EXPIRED = "refresh_expired"
    REFRESH_REUSED = "refresh_reused"  # used before: its session (ended_session_id) is ended
    SESSION_ENDED = "session_ended"
    NO_SUCH_SESSION = "no_such_session"
    TOO_MANY_ATTEMPTS = "too_many_attempts"  # with retry_after_ms
    BAD_ORIGIN = "bad_origin"  # passkeys: the page's origin is not one an RP ID comes from
    CHALLENGE_UNKNOWN = "challenge_unknown"  # never offered, answered before, or expired
    PASSKEY_UNKNOWN = "passkey_unknown"  # on no account (removed, or its account deleted)
    PASSKEY_REFUSED = "passkey_refused"  # the authenticator's answer does not check out


class Refused(Exception):
    """A refusal with its reason; ``metadata`` goes with it (``retry_after_ms``, say)."""

    def __init__(self, reason: Reason, detail: str, metadata: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.reason = reason
        self.metadata = metadata or {}


@dataclass(frozen=True, slots=True)
class Account:
    player_id: str
    username: str
    password_hash: str
    deleted: bool
    operator: bool = False  # holds the operator role (the fair-play queue)


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A session just begun or carried on: who, which session, and its new refresh token."""

    player_id: str
    username: str
    session_id: str
    refresh_token: str  # shown to the client once; only its hash is stored
    refresh_expires_unix_s: float  # unless used before: then its successor's counts
    operator: bool = False  # the account holds the operator role


@dataclass(frozen=True, slots=True)
class Device:
    session_id: str
    device: str  # what the client said it is (its browser, or the CLI)
    created_unix_s: float
    last_seen_unix_s: float
