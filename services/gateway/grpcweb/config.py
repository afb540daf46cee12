"""Everything the gRPC-web translator is told: the allow-list, backends, limits, policies."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from google.protobuf.message import Message

from services.gateway.grpcweb.cors import CorsPolicy
from services.gateway.grpcweb.metadata import HeaderPolicy
from services.gateway.grpcweb.routes import Resolver, Route, is_method_path
from wire.grpcweb.metadata import Metadata

# A method the gateway answers itself (grpcweb/local.py), called with the request parsed by
# its route and the metadata the gateway's hook added: a unary one returns its reply's
# bytes, a server stream yields each message's bytes.
LocalUnary = Callable[[Message, Metadata], Awaitable[bytes]]
LocalStream = Callable[[Message, Metadata], AsyncIterator[bytes]]
LocalMethod = LocalUnary | LocalStream
StreamSlot = Callable[[Metadata], AbstractContextManager[None]]

DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class GrpcWebConfig:
    """The translator's settings, checked once when built.

    `routes` maps "/package.Service/Method" to its Route; `backends` maps each route's
    backend name to a gRPC target ("127.0.0.1:7001"), unless `local` answers the method.
    """

    routes: Mapping[str, Route]
    backends: Mapping[str, str]
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    headers: HeaderPolicy = field(default_factory=HeaderPolicy)
    cors: CorsPolicy = field(default_factory=CorsPolicy)
    # How long a request's body may take to arrive, once its headers have: a client that
    # sends a byte now and then holds a connection and a handler for nothing.
    body_timeout_s: float = 10.0
    channel_options: tuple[tuple[str, int | str], ...] = ()
    # Sent with every call to a backend, which knows its callers by it (PF_CALLER_TOKEN).
    caller_token: str = ""
    # Backends with several instances: which one serves a request (by backend name).
    resolvers: Mapping[str, Resolver] = field(default_factory=dict)
    # Methods the gateway answers itself (by public path): their routes name no backend.
    local: Mapping[str, LocalMethod] = field(default_factory=dict)
    # Held for the whole of each forwarded server stream, given the metadata the hook
    # added; entering it raises RequestRefused to refuse the stream (a limit per player).
    stream_slot: StreamSlot | None = None

    def __post_init__(self) -> None:
        for path, route in self.routes.items():
            if not is_method_path(path):
                raise ValueError(f"route {path!r} is not of the form /package.Service/Method")
            if route.target and not is_method_path(route.target):
                raise ValueError(f"route {path} targets {route.target!r}, not a method path")
            if path not in self.local and route.backend not in self.backends:
                raise ValueError(f"route {path} names unknown backend {route.backend!r}")
        if self.max_message_bytes <= 0:
            raise ValueError(f"max_message_bytes must be positive, not {self.max_message_bytes}")
