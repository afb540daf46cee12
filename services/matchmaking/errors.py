"""Why matchmaking turned a request away: one closed set of reasons, split by kind."""

from __future__ import annotations

import enum


class Reason(enum.Enum):
    """Every reason matchmaking gives. Values travel as ``ErrorInfo.reason``: never rename."""

    # Unauthenticated: the gateway did not name the player.
    MISSING_IDENTITY = "missing_identity"
    # Malformed: the request cannot be understood.
    NO_SUCH_GAME = "no_such_game"
    NO_SUCH_LEVEL = "no_such_level"
    # Not found: nothing answers to the name given.
    NO_SUCH_CHALLENGE = "no_such_challenge"
    NO_REMATCH = "no_rematch"  # not an online match of the caller's that this service opened
    # Forbidden: not for this player.
    ACCOUNT_NEEDED = "account_needed"  # rated play is for accounts, not guests
    BARRED = "barred"  # the account was marked for unfair play: no rated games
    # Refused: well formed, but not allowed now.
    OWN_CHALLENGE = "own_challenge"
    TOO_MANY_CHALLENGES = "too_many_challenges"  # the creator's open challenges are at the cap
    TOO_MANY_MATCHES = "too_many_matches"  # the player's computer and hot-seat ones are at the cap
    MATCH_BEING_OPENED = "match_being_opened"
    # Superseded: a newer request of the same player took this one's place.
    TICKET_REPLACED = "ticket_replaced"
    # Unavailable: a service matchmaking depends on did not answer.
    NO_ARBITRATION = "no_arbitration"
    NO_BOT_POOL = "no_bot_pool"


RATED_IS_FOR_ACCOUNTS = "rated play is for accounts: sign up or sign in to play rated"
BARRED_FROM_RATED = "this account was marked for unfair play: it can no longer play rated games"


class MatchmakingError(Exception):
    """Base of every error matchmaking raises to a caller; the state is unchanged."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail


class Unauthenticated(MatchmakingError):
    """The call carries no player identity."""


class Malformed(MatchmakingError):
    """The request names something that cannot exist (an unspecified game or level)."""


class NotFound(MatchmakingError):
    """The request names something that does not exist (any more)."""


class Forbidden(MatchmakingError):
    """The request is not for this kind of player (a guest asking for rated play)."""


class Refused(MatchmakingError):
    """The request is well formed but not allowed in the current state."""


class Superseded(MatchmakingError):
    """A newer request of the same player replaced this one."""


class Unavailable(MatchmakingError):
    """Arbitration or the bot pool did not answer, so no match was opened."""
