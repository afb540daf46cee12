"""The allow-list: which gRPC methods the gateway forwards, how they stream, and to where."""

from __future__ import annotations

import enum
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError, Message

from wire.grpcweb.errors import MalformedRequest, Reason

# "/package.Service/Method" with a dotted package: the gateway serves versioned APIs only,
# and requiring the dot keeps the route clear of static paths such as "/assets/app.js".
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
SERVICE_PATTERN = rf"{_NAME}(?:\.{_NAME})+"
METHOD_PATTERN = _NAME
_METHOD_PATH = re.compile(rf"/{SERVICE_PATTERN}/{METHOD_PATTERN}")

# A request's fields that name a match, a tournament or a player: every id the arena makes
# is at most 64 URL-safe characters (services/common/ids.py; a match id is also a NATS
# subject's token). One that is not is refused here, so an id of 60,000 characters never
# reaches a backend, nor comes back inside its error. Empty is left to the method.
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
ID_FIELDS = {
    "match_id": Reason.BAD_MATCH_ID,
    "tournament_id": Reason.BAD_ID,
    "player_id": Reason.BAD_ID,
    "around_player_id": Reason.BAD_ID,
}


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
    # The request type's id fields (of ID_FIELDS), found once here rather than per request.
    ids: tuple[tuple[str, Reason], ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        fields = self.request.DESCRIPTOR.fields_by_name if self.request is not None else {}
        ids = tuple((name, reason) for name, reason in ID_FIELDS.items() if name in fields)
        object.__setattr__(self, "ids", ids)  # frozen: set once, as it is built

    @classmethod
    def unary(cls, backend: str, target: str = "") -> Route:
        return cls(MethodKind.UNARY, backend, target)

    @classmethod
    def server_streaming(cls, backend: str, target: str = "") -> Route:
        return cls(MethodKind.SERVER_STREAMING, backend, target)

    def check(self, message: bytes) -> Message | None:
        """Return ``message`` parsed as this route's request type (None: it has none).

        Raises:
            MalformedRequest: when it does not parse, or an id field holds no id.
        """
        if self.request is None:
            return None
        try:
            parsed = self.request.FromString(message)
        except DecodeError as error:
            name = self.request.DESCRIPTOR.full_name
            raise MalformedRequest(
                Reason.BAD_MESSAGE, f"the body is not a {name}: {error}"
            ) from None
        for name, reason in self.ids:  # a non-empty id must be one; empty is the method's
            value = getattr(parsed, name)
            if value and _ID.fullmatch(value) is None:
                raise MalformedRequest(
                    reason, f"{name} {value[:80]!r} is not an id (1–64 of A–Z a–z 0–9 _ -)"
                )
        return parsed


def is_method_path(path: str) -> bool:
    """Returns whether `path` has the shape "/package.Service/Method"."""
    return _METHOD_PATH.fullmatch(path) is not None
