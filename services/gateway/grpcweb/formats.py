"""The two ways a gRPC-web body travels: raw frames, or base64 of them (grpc-web-text)."""

from __future__ import annotations

import enum


class WireFormat(enum.Enum):
    """How a gRPC-web body is carried: raw frames, or base64 of them."""

    BINARY = "application/grpc-web+proto"
    TEXT = "application/grpc-web-text+proto"

    @property
    def content_type(self) -> str:
        """Returns the content type the gateway answers with."""
        return self.value


_FORMATS = {
    "application/grpc-web": WireFormat.BINARY,
    "application/grpc-web+proto": WireFormat.BINARY,
    "application/grpc-web-text": WireFormat.TEXT,
    "application/grpc-web-text+proto": WireFormat.TEXT,
}


def wire_format(content_type: str) -> WireFormat | None:
    """Returns the wire format of a request's content type (no parameters), None if not ours."""
    return _FORMATS.get(content_type.strip().lower())
