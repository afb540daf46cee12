"""gRPC status codes, the final status of a call, and the one map from refusals to codes."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from services.gateway.grpcweb.errors import MalformedRequest, Reason
from services.gateway.grpcweb.metadata import Metadata


class Code(enum.IntEnum):
    """The gRPC status codes (grpc/doc/statuscodes.md); values are the wire values."""

    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16


@dataclass(frozen=True, slots=True)
class Status:
    """How a call ended: code, human message, trailing metadata (status details included)."""

    code: Code
    message: str = ""
    trailers: Metadata = ()

    @property
    def is_ok(self) -> bool:
        return self.code is Code.OK


class RequestRefused(Exception):
    """Raised by a metadata hook to end the call with this status before it is forwarded."""

    def __init__(self, status: Status) -> None:
        super().__init__(f"{status.code.name}: {status.message}")
        self.status = status


# Every malformed request is the client's fault (INVALID_ARGUMENT) except a message over
# the size limit, which gRPC reports as RESOURCE_EXHAUSTED.
_CODE_FOR_REASON = {reason: Code.INVALID_ARGUMENT for reason in Reason} | {
    Reason.MESSAGE_TOO_LARGE: Code.RESOURCE_EXHAUSTED
}


def status_for(error: MalformedRequest) -> Status:
    """Returns the status the client receives for a malformed request."""
    return Status(_CODE_FOR_REASON[error.reason], error.detail)
