"""The allow-list: which gRPC methods the gateway forwards, how they stream, and to where."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

# "/package.Service/Method" with a dotted package: the gateway serves versioned APIs only,
# and requiring the dot keeps the route clear of static paths such as "/assets/app.js".
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
SERVICE_PATTERN = rf"{_NAME}(?:\.{_NAME})+"
METHOD_PATTERN = _NAME
_METHOD_PATH = re.compile(rf"/{SERVICE_PATTERN}/{METHOD_PATTERN}")


class MethodKind(enum.Enum):
    """The call shapes a browser can make over gRPC-web (no client streaming)."""

    UNARY = "unary"
    SERVER_STREAMING = "server_streaming"


@dataclass(frozen=True, slots=True)
class Route:
    """Where one allowed method goes: its kind and the name of the backend channel."""

    kind: MethodKind
    backend: str

    @classmethod
    def unary(cls, backend: str) -> Route:
        return cls(MethodKind.UNARY, backend)

    @classmethod
    def server_streaming(cls, backend: str) -> Route:
        return cls(MethodKind.SERVER_STREAMING, backend)


def is_method_path(path: str) -> bool:
    """Returns whether `path` has the shape "/package.Service/Method"."""
    return _METHOD_PATH.fullmatch(path) is not None
