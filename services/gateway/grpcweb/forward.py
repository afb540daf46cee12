"""Relaying a backend call's outcome to the browser: unary in one write, streams as they come."""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Mapping
from typing import Any, Protocol

from aiohttp import web

from services.gateway.grpcweb.backends import BACKENDS, Backends
from services.gateway.grpcweb.calls import CANCELLED_HERE, Outgoing, StreamCall, call_unary
from services.gateway.grpcweb.disconnect import is_gone
from services.gateway.grpcweb.formats import WireFormat
from services.gateway.grpcweb.metrics import OPEN_STREAMS, UNARY_SECONDS
from services.gateway.grpcweb.response import StreamWriter, trailers_only, unary
from services.gateway.grpcweb.routes import Route
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, Status, refused

SHUTTING_DOWN = refused(
    Code.UNAVAILABLE, "gateway_stopping", "the gateway is shutting down; call again"
)


async def forward_unary(
    request: web.Request,
    wire: WireFormat,
    outgoing: Outgoing,
    route: Route,
    cors: Mapping[str, str],
) -> web.Response:
    """Returns the browser's response to a unary call forwarded to its backend."""
    backends = request.config_dict[BACKENDS]
    started = time.perf_counter()
    reply = await call_unary(
        backends.unary(route.backend, outgoing.path, outgoing.target), outgoing
    )
    status = _explained(reply.status, backends)
    method = outgoing.path.rsplit("/", 1)[-1]
    UNARY_SECONDS.labels(method, status.code.name).observe(time.perf_counter() - started)
    if reply.message is None:
        return trailers_only(wire, status, cors, reply.headers)
    return unary(wire, reply.headers, reply.message, status, cors)


async def forward_stream(
    request: web.Request,
    wire: WireFormat,
    outgoing: Outgoing,
    route: Route,
    cors: Mapping[str, str],
) -> web.StreamResponse:
    """Returns the browser's response to a server stream forwarded to its backend."""
    backends = request.config_dict[BACKENDS]
    stream = StreamCall(
        backends.server_streaming(route.backend, outgoing.path, outgoing.target), outgoing
    )
    method = outgoing.path.rsplit("/", 1)[-1]
    return await relay_stream(request, wire, stream, cors, method)


class ServerStream(Protocol):
    """A server stream read message by message: a backend call's or a local method's."""

    async def next(self) -> bytes | Status:
        """Returns the next message, or the final status once the stream has ended."""
        ...

    async def headers(self) -> Metadata: ...

    def cancel(self) -> None:
        """Ends the stream; a ``next`` waiting now returns CANCELLED_HERE."""
        ...


async def relay_stream(
    request: web.Request,
    wire: WireFormat,
    stream: ServerStream,
    cors: Mapping[str, str],
    method: str,
) -> web.StreamResponse:
    """Returns the browser's response to a server stream, written message by message.

    The stream is cancelled whichever way this ends: stream over, browser gone (the
    handler is cancelled then, see disconnect.py, or a write fails), gateway shutting down.
    """
    backends = request.config_dict[BACKENDS]
    try:
        with backends.tracking(stream), OPEN_STREAMS.labels(method).track_inprogress():
            return await _relay(request, wire, stream, backends, cors)
    finally:
        stream.cancel()


async def _relay(
    request: web.Request,
    wire: WireFormat,
    stream: ServerStream,
    backends: Backends,
    cors: Mapping[str, str],
) -> web.StreamResponse:
    item = await _next(stream)
    if isinstance(item, Status) and not item.is_ok:
        return trailers_only(wire, _explained(item, backends), cors, await stream.headers())
    writer = StreamWriter(request, wire, cors)
    try:
        await writer.start(await stream.headers())
        while not isinstance(item, Status):
            await writer.send(item)
            item = await _next(stream)
        if not is_gone(request):
            await writer.end(_explained(item, backends))
    except ConnectionResetError:
        pass  # The browser has gone: nobody to tell; the caller cancels the backend call.
    return writer.response


# The handler tasks whose streams the server ends (end_stream), with the status to end with.
_ENDINGS: weakref.WeakKeyDictionary[asyncio.Task[Any], Status] = weakref.WeakKeyDictionary()


def end_stream(task: asyncio.Task[Any], status: Status) -> None:
    """End the server stream that ``task`` (its handler) relays, with ``status``.

    Its backend call, or local method, is cancelled; the browser gets ``status`` as the
    stream's last word, as if the backend had ended it so.
    """
    _ENDINGS[task] = status
    task.cancel()


async def _next(stream: ServerStream) -> bytes | Status:
    """The stream's next message or final status; an ``end_stream`` meanwhile, its status."""
    try:
        return await stream.next()
    except asyncio.CancelledError:
        task = asyncio.current_task()
        ending = _ENDINGS.pop(task, None) if task is not None else None
        if task is None or ending is None:
            raise
        task.uncancel()
        return ending


def _explained(status: Status, backends: Backends) -> Status:
    # A call the gateway cancelled because it is stopping gets a status worth retrying.
    return SHUTTING_DOWN if status is CANCELLED_HERE and backends.closing else status
