"""Why the tournaments service turned a request away, split by kind, as gRPC statuses."""

from __future__ import annotations

import enum

import grpc

from services.common.rejection import Rejection


class Reason(enum.Enum):
    """Every reason given. Values travel as ``ErrorInfo.reason``: never rename."""

    MISSING_IDENTITY = "missing_identity"
    BAD_NAME = "bad_name"
    NO_SUCH_GAME = "no_such_game"
    BAD_START = "bad_start"
    BAD_DURATION = "bad_duration"
    BAD_LIMIT = "bad_limit"
    NO_PLAYER_ID = "no_player_id"
    NO_SUCH_TOURNAMENT = "no_such_tournament"
    TOURNAMENT_OVER = "tournament_over"
    NOT_ENTERED = "not_entered"
    TOO_MANY_TOURNAMENTS = "too_many_tournaments"  # the creator's unfinished ones are at the cap
    ACCOUNT_NEEDED = "account_needed"  # a rated tournament is for accounts, not guests


class TournamentError(Exception):
    """Base of every error raised to a caller; nothing was changed."""

    code = grpc.StatusCode.UNKNOWN

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail

    def rejection(self) -> Rejection:
        """Return the error as the rich gRPC status every service sends."""
        return Rejection(self.code, self.reason.value, self.detail)


class Unauthenticated(TournamentError):
    """The call names no player."""

    code = grpc.StatusCode.UNAUTHENTICATED


class Malformed(TournamentError):
    """The request cannot be carried out as written (a bad name, game, start or duration)."""

    code = grpc.StatusCode.INVALID_ARGUMENT


class NotFound(TournamentError):
    """No tournament has the id given."""

    code = grpc.StatusCode.NOT_FOUND


class Forbidden(TournamentError):
    """Not for this kind of player (a guest in a rated tournament)."""

    code = grpc.StatusCode.PERMISSION_DENIED


class Refused(TournamentError):
    """Well formed, but not allowed now (joining a finished tournament, one too many)."""

    code = grpc.StatusCode.FAILED_PRECONDITION
