"""gRPC status codes and the final status of a call, as the trailer block carries them."""

from __future__ import annotations

import enum
from dataclasses import dataclass

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
