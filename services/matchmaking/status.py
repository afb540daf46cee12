"""Matchmaking errors as gRPC statuses: the one place a kind of error meets a status code.

Handlers are wrapped with :func:`unary` or :func:`stream`; a :class:`MatchmakingError`
they raise ends the call with the kind's code and the reason as ``ErrorInfo.reason``.
"""

from __future__ import annotations

import grpc

from services.common.rejection import Rejection
from services.common.statuses import Statuses
from services.matchmaking.errors import (
    Forbidden,
    Malformed,
    MatchmakingError,
    NotFound,
    Refused,
    Superseded,
    Unauthenticated,
    Unavailable,
)

CODES: dict[type[MatchmakingError], grpc.StatusCode] = {
    Unauthenticated: grpc.StatusCode.UNAUTHENTICATED,
    Malformed: grpc.StatusCode.INVALID_ARGUMENT,
    NotFound: grpc.StatusCode.NOT_FOUND,
    Forbidden: grpc.StatusCode.PERMISSION_DENIED,
    Refused: grpc.StatusCode.FAILED_PRECONDITION,
    Superseded: grpc.StatusCode.ABORTED,
    Unavailable: grpc.StatusCode.UNAVAILABLE,
}


def rejection(error: MatchmakingError) -> Rejection:
    """Return ``error`` as the rich gRPC status every service sends."""
    return Rejection(CODES[type(error)], error.reason.value, error.detail)


_MATCHMAKING = Statuses(MatchmakingError, rejection)
unary = _MATCHMAKING.unary
stream = _MATCHMAKING.stream
