"""The gRPC-web endpoint: checks a request, reads its message, forwards it, relays the answer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import cast

from aiohttp import web
from google.protobuf.message import Message

from services.common.ratelog import RateLimitedWarnings
from services.gateway.grpcweb.calls import Outgoing
from services.gateway.grpcweb.config import GrpcWebConfig, LocalMethod, LocalStream, LocalUnary
from services.gateway.grpcweb.cors import preflight_headers, response_headers
from services.gateway.grpcweb.formats import WireFormat, wire_format
from services.gateway.grpcweb.forward import forward_stream, forward_unary, relay_stream
from services.gateway.grpcweb.local import LocalCall, answer_unary
from services.gateway.grpcweb.message import MessageReader
from services.gateway.grpcweb.metadata import forwarded, parse_timeout
from services.gateway.grpcweb.refusal import RequestRefused, status_for
from services.gateway.grpcweb.response import trailers_only
from services.gateway.grpcweb.routes import MethodKind, Route
from wire.grpcweb.errors import MalformedRequest
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, refused

# One line per malformed request, at most 10 a minute: a stranger cannot fill the log.
MALFORMED = RateLimitedWarnings(logging.getLogger("gateway"))

# Called once the request message is in, just before forwarding. Returns the metadata the
# gateway adds (an authenticated player id, a receipt stamp); raises RequestRefused to end
# the call with that status instead (UNAUTHENTICATED for a bad token, say).
MetadataHook = Callable[[web.Request, Route], Awaitable[Metadata]]


class GrpcWebProxy:
    """aiohttp handlers translating gRPC-web to gRPC for the methods on the allow-list."""

    def __init__(self, config: GrpcWebConfig, hook: MetadataHook | None = None) -> None:
        self._config = config
        self._hook = hook

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Returns the gRPC-web response to a POST of /package.Service/Method."""
        cors = response_headers(self._config.cors, request.headers.get("Origin"))
        wire = wire_format(request.content_type)
        if wire is None:
            # gRPC answers a content type it does not speak with HTTP 415, not a status.
            return web.Response(
                status=415, text=f"unsupported content type {request.content_type}", headers=cors
            )
        path = f"/{request.match_info['service']}/{request.match_info['method']}"
        route = self._config.routes.get(path)
        if route is None:
            status = refused(
                Code.UNIMPLEMENTED, "unknown_method", f"method {path} is not served by this gateway"
            )
            return trailers_only(wire, status, cors)
        local = self._config.local.get(path)
        try:
            incoming = await self._incoming(request, wire, route, local is not None)
            if local is not None:
                return await self._answer_here(request, wire, route, local, incoming, cors)
            outgoing = await self._outgoing(path, route, incoming)
        except MalformedRequest as err:
            MALFORMED.warning(
                "malformed request refused",
                {"reason": err.reason.value, "path": path, "peer": request.remote or ""},
            )
            return trailers_only(wire, status_for(err), cors)
        except RequestRefused as refusal:
            return trailers_only(wire, refusal.status, cors)
        if route.kind is MethodKind.UNARY:
            return await forward_unary(request, wire, outgoing, route, cors)
        with contextlib.ExitStack() as held:
            if self._config.stream_slot is not None:
                try:
                    held.enter_context(self._config.stream_slot(incoming.own))
                except RequestRefused as refusal:
                    return trailers_only(wire, refusal.status, cors)
            return await forward_stream(request, wire, outgoing, route, cors)

    async def preflight(self, request: web.Request) -> web.Response:
        """Returns the answer to a CORS preflight (OPTIONS) for a gRPC-web call."""
        origin = request.headers.get("Origin")
        if origin is None:
            return web.Response(status=400, text="a CORS preflight needs an Origin header")
        headers = preflight_headers(
            self._config.cors,
            origin,
            request.headers.get("Access-Control-Request-Headers"),
            self._config.headers.forwards,
        )
        if headers is None:
            return web.Response(status=403, text=f"origin {origin} may not call this API")
        return web.Response(status=204, headers=headers)

    async def _answer_here(
        self,
        request: web.Request,
        wire: WireFormat,
        route: Route,
        method: LocalMethod,
        incoming: Incoming,
        cors: Mapping[str, str],
    ) -> web.StreamResponse:
        if incoming.parsed is None:
            raise RequestRefused(
                refused(Code.INTERNAL, "internal_error", "a local method needs a request type")
            )
        method_name = request.match_info["method"]
        if route.kind is MethodKind.UNARY:
            unary = cast(LocalUnary, method)
            return await answer_unary(wire, unary, incoming.parsed, incoming.own, cors, method_name)
        stream = LocalCall(cast(LocalStream, method)(incoming.parsed, incoming.own))
        try:
            return await relay_stream(request, wire, stream, cors, method_name)
        finally:
            await stream.close()

    async def _incoming(
        self, request: web.Request, wire: WireFormat, route: Route, local: bool
    ) -> Incoming:
        encoding = request.headers.get("grpc-encoding", "identity")
        if encoding != "identity":
            raise RequestRefused(
                refused(
                    Code.UNIMPLEMENTED,
                    "unsupported_encoding",
                    f"grpc-encoding {encoding} is not supported; use identity",
                )
            )
        timeout_s = parse_timeout(request.headers.get("grpc-timeout"))
        reader = MessageReader(wire, self._config.max_message_bytes)
        limit_s = self._config.body_timeout_s
        try:
            async with asyncio.timeout(limit_s):
                async for chunk in request.content.iter_any():
                    reader.feed(chunk)
        except TimeoutError:
            raise RequestRefused(
                refused(
                    Code.DEADLINE_EXCEEDED,
                    "body_timeout",
                    f"the request body did not arrive within {limit_s:g} s",
                )
            ) from None
        message = reader.finish()
        parsed = route.check(message)
        own = await self._hook(request, route) if self._hook is not None else ()
        if local:  # answered here: nothing goes to a backend
            return Incoming(message, parsed, own, own, timeout_s)
        metadata = forwarded(request.headers, self._config.headers, own)
        return Incoming(message, parsed, own, metadata, timeout_s)

    async def _outgoing(self, path: str, route: Route, incoming: Incoming) -> Outgoing:
        resolver = self._config.resolvers.get(route.backend)
        parsed = incoming.parsed
        target = await resolver(parsed) if resolver is not None and parsed is not None else None
        return Outgoing(
            route.target or path,
            incoming.message,
            incoming.metadata,
            incoming.timeout_s,
            target or "",
        )


@dataclass(frozen=True, slots=True)
class Incoming:
    """A request as read: its bytes, parsed (when the route knows its type), the metadata."""

    message: bytes
    parsed: Message | None
    own: Metadata  # what the gateway's hook added (the player it authenticated)
    metadata: Metadata  # what a backend call would carry: the client's allowed headers too
    timeout_s: float | None
