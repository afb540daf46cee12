"""gRPC status codes and the final status of a call, as the trailer block carries them."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

from wire.grpcweb.metadata import Metadata


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


STATUS_DETAILS = "grpc-status-details-bin"  # the trailer with the google.rpc.Status
DOMAIN = "photofinish"  # every ErrorInfo's domain


def rich_status(
    code: int, reason: str, message: str, metadata: Mapping[str, str] | None = None
) -> status_pb2.Status:
    """Return the google.rpc.Status of a refusal: its code, "reason: message" and the
    ErrorInfo that names the reason, as every refusal of the API carries (docs/protocol.md):
    clients branch on the reason, not the text."""
    info = error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=metadata or {})
    detail = any_pb2.Any()
    detail.Pack(info)
    return status_pb2.Status(code=code, message=f"{reason}: {message}", details=[detail])


def refused(
    code: Code, reason: str, message: str, metadata: Mapping[str, str] | None = None
) -> Status:
    """Return the gRPC-web status of a refusal (``rich_status`` in its details trailer)."""
    rich = rich_status(int(code), reason, message, metadata)
    return Status(code, rich.message, ((STATUS_DETAILS, rich.SerializeToString()),))


def has_details(status: Status) -> bool:
    """Return whether ``status`` carries a google.rpc.Status (a service's own refusal)."""
    return any(key == STATUS_DETAILS for key, _ in status.trailers)
