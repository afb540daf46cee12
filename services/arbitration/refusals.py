"""Why the arbitration turns a request away: one closed set of reasons, each with its code.

Each reason maps to one gRPC status code here and nowhere else; ``refuse`` makes the
:class:`~services.common.rejection.Rejection` that carries both. The rules' own refusals
(an illegal move, a lost race) pass through with the rules' reason and are not listed.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

import grpc

from services.common.rejection import Rejection

# The rules service's reasons the arbitration reads (services/rules): a match the rules
# instance no longer holds (it is restored there, and the call made again), and a command
# other than a resignation while the seat may only resign.
NOT_HELD = "not_held"
NOT_A_RESIGNATION = "not_a_resignation"


class Reason(enum.Enum):
    """Every reason the arbitration gives. Values travel as ``ErrorInfo.reason`` and stand
    in match logs: never rename one."""

    # The command is malformed, or its number cannot be taken.
    BAD_CLIENT_SEQ = "bad_client_seq"
    BAD_COMMAND = "bad_command"
    BAD_MATCH_ID = "bad_match_id"
    # Who asks.
    UNAUTHENTICATED = "unauthenticated"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_MATCH = "not_your_match"
    # Well formed, but not now.
    STALE_CLIENT_SEQ = "stale_client_seq"
    MATCH_OVER = "match_over"
    TOO_LATE = "too_late"
    NO_HANDOVER = "no_handover"
    REVEAL_FIRST = "reveal_first"
    NO_CLAIM = "no_claim"
    OPPONENT_PRESENT = "opponent_present"
    TOO_MANY_COMMANDS = "too_many_commands"
    MATCH_LIVE = "match_live"  # its log is read once the match is over
    # Nothing answers to the name given.
    UNKNOWN_MATCH = "unknown_match"
    NO_SUCH_STEP = "no_such_step"
    # Too big to serve.
    LOG_TOO_LONG = "log_too_long"
    # Not served by this instance.
    NO_LOG = "no_log"
    # Ask again: the match moved, is arriving, or a service behind this one did not answer.
    MATCH_MOVED = "match_moved"
    MATCH_ARRIVING = "match_arriving"
    RULES_UNAVAILABLE = "rules_unavailable"
    LOG_UNAVAILABLE = "log_unavailable"
    INTERNAL_ERROR = "internal_error"


_CODES: Mapping[Reason, grpc.StatusCode] = {
    Reason.BAD_CLIENT_SEQ: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.BAD_COMMAND: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.BAD_MATCH_ID: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.UNAUTHENTICATED: grpc.StatusCode.UNAUTHENTICATED,
    Reason.NOT_YOUR_SEAT: grpc.StatusCode.PERMISSION_DENIED,
    Reason.NOT_YOUR_MATCH: grpc.StatusCode.PERMISSION_DENIED,
    Reason.STALE_CLIENT_SEQ: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.MATCH_OVER: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.TOO_LATE: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.NO_HANDOVER: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.REVEAL_FIRST: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.NO_CLAIM: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.OPPONENT_PRESENT: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.TOO_MANY_COMMANDS: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.MATCH_LIVE: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.UNKNOWN_MATCH: grpc.StatusCode.NOT_FOUND,
    Reason.NO_SUCH_STEP: grpc.StatusCode.OUT_OF_RANGE,
    Reason.LOG_TOO_LONG: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Reason.NO_LOG: grpc.StatusCode.UNIMPLEMENTED,
    Reason.MATCH_MOVED: grpc.StatusCode.UNAVAILABLE,
    Reason.MATCH_ARRIVING: grpc.StatusCode.UNAVAILABLE,
    Reason.RULES_UNAVAILABLE: grpc.StatusCode.UNAVAILABLE,
    Reason.LOG_UNAVAILABLE: grpc.StatusCode.UNAVAILABLE,
    Reason.INTERNAL_ERROR: grpc.StatusCode.UNAVAILABLE,
}


def code_of(reason: Reason) -> grpc.StatusCode:
    """Return the gRPC status code ``reason`` travels with."""
    return _CODES[reason]


def refuse(reason: Reason, message: str, metadata: Mapping[str, str] | None = None) -> Rejection:
    """Return the refusal for ``reason``, with its code and ``message`` for people."""
    return Rejection(_CODES[reason], reason.value, message, metadata)
