"""Why a gRPC-web body or its headers are malformed: the gateway refuses such a request."""

from __future__ import annotations

import enum


class Reason(enum.Enum):
    """Every way a request can be malformed. Values appear in logs: never rename."""

    TRUNCATED_FRAME = "truncated_frame"
    UNKNOWN_FLAG = "unknown_flag"
    COMPRESSED_FRAME = "compressed_frame"
    TRAILER_FRAME = "trailer_frame"
    NO_MESSAGE = "no_message"
    EXTRA_MESSAGE = "extra_message"
    MESSAGE_TOO_LARGE = "message_too_large"
    BAD_BASE64 = "bad_base64"
    BAD_TIMEOUT = "bad_timeout"
    BAD_HEADER = "bad_header"
    BAD_MESSAGE = "bad_message"
    BAD_MATCH_ID = "bad_match_id"
    BAD_ID = "bad_id"


class MalformedRequest(ValueError):
    """A body or headers break the gRPC-web wire format or the reader's limits."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail
