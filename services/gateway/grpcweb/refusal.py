"""Calls the gateway ends itself: a hook's refusal, and the one map from malformed requests."""

from __future__ import annotations

from wire.grpcweb.errors import MalformedRequest, Reason
from wire.grpcweb.status import Code, Status, refused


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
    return refused(_CODE_FOR_REASON[error.reason], error.reason.value, error.detail)
