"""The allow-list: which gRPC methods the gateway forwards, how they stream, and to where."""

from __future__ import annotations

import enum
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from google.protobuf.message import DecodeError, Message

from wire.grpcweb.errors import MalformedRequest, Reason

# "/package.Service/Method" with a dotted package: the gateway serves versioned APIs only,
# and requiring the dot keeps the route clear of static paths such as "/assets/app.js".
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
SERVICE_PATTERN = rf"{_NAME}(?:\.{_NAME})+"
METHOD_PATTERN = _NAME
_METHOD_PATH = re.compile(rf"/{SERVICE_PATTERN}/{METHOD_PATTERN}")


# Picks which instance of a backend serves one request, from the request itself: a gRPC
# target ("10.0.0.7:7102"), or None for the backend's configured address.
Resolver = Callable[[Message], Awaitable[str | None]]


class MethodKind(enum.Enum):
    """The call shapes a browser can make over gRPC-web (no client streaming)."""

    UNARY = "unary"
    SERVER_STREAMING = "server_streaming"


@dataclass(frozen=True, slots=True)
class Route:
    """Where one allowed method goes: its kind, the backend channel and the backend method.

    ``target`` is the backend's "/package.Service/Method" when it differs from the public
    path (the public API is one service; its methods are served by several backends).
    """

    kind: MethodKind
    backend: str
    target: str = ""
    # The request's message type: when set, a body that does not parse as one is refused
    # here with INVALID_ARGUMENT instead of reaching the backend as undecodable bytes.
    request: type[Message] | None = None

    @classmethod
    def unary(cls, backend: str, target: str = "") -> Route:
        return cls(MethodKind.UNARY, backend, target)

    @classmethod
    def server_streaming(cls, backend: str, target: str = "") -> Route:
        return cls(MethodKind.SERVER_STREAMING, backend, target)

    def check(self, message: bytes) -> Message | None:
        """Return ``message`` parsed as this route's request type (None: it has none).

        Raises:
            MalformedRequest: when it does not parse.
        """
        if self.request is None:
            return None
        try:
            return self.request.FromString(message)
        except DecodeError as error:
            name = self.request.DESCRIPTOR.full_name
            raise MalformedRequest(
                Reason.BAD_MESSAGE, f"the body is not a {name}: {error}"
            ) from None


def is_method_path(path: str) -> bool:
    """Returns whether `path` has the shape "/package.Service/Method"."""
    return _METHOD_PATH.fullmatch(path) is not None
