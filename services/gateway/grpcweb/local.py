"""Methods the gateway answers itself, in-process: no backend call in between.

A local unary method returns its reply's bytes; a local server stream yields each
message's bytes. Either ends the call with another status by raising
:class:`RequestRefused` (a stream may do so before its first message or after any).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

from aiohttp import web
from google.protobuf.message import Message

from services.gateway.grpcweb.disconnect import call_when_gone, is_gone
from services.gateway.grpcweb.formats import WireFormat
from services.gateway.grpcweb.metrics import OPEN_STREAMS, UNARY_SECONDS
from services.gateway.grpcweb.refusal import RequestRefused
from services.gateway.grpcweb.response import StreamWriter, trailers_only, unary
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, Status

# (the request, parsed by its route; the metadata the gateway's hook added)
LocalUnary = Callable[[Message, Metadata], Awaitable[bytes]]
LocalStream = Callable[[Message, Metadata], AsyncIterator[bytes]]
LocalMethod = LocalUnary | LocalStream

OK = Status(Code.OK)
SHUTTING_DOWN = Status(Code.UNAVAILABLE, "the gateway is shutting down; call again")


async def answer_unary(
    wire: WireFormat,
    method: LocalUnary,
    request: Message,
    metadata: Metadata,
    cors: Mapping[str, str],
    name: str,
) -> web.Response:
    """Returns the browser's response to a unary method answered here (timed as a
    forwarded call is: Submit's time is the command latency the ops page shows)."""
    started = time.perf_counter()
    try:
        reply = await method(request, metadata)
    except RequestRefused as refusal:
        UNARY_SECONDS.labels(name, refusal.status.code.name).observe(time.perf_counter() - started)
        return trailers_only(wire, refusal.status, cors)
    UNARY_SECONDS.labels(name, OK.code.name).observe(time.perf_counter() - started)
    return unary(wire, (), reply, OK, cors)


class LocalStreams:
    """The local server streams running now, so that shutdown can end them all."""

    def __init__(self) -> None:
        self._running: set[asyncio.Task[object]] = set()
        self.closing = False

    def end_all(self) -> None:
        self.closing = True
        for task in list(self._running):
            task.cancel()

    async def answer(
        self,
        request: web.Request,
        wire: WireFormat,
        messages: AsyncIterator[bytes],
        cors: Mapping[str, str],
        poll_s: float,
        method: str,
    ) -> web.StreamResponse:
        """Returns the browser's response to a local server stream, written as it yields.

        The stream's generator is closed whichever way this ends: stream over, browser
        gone (seen by a failed write or by the idle poll), gateway shutting down.
        """
        task = asyncio.current_task()
        assert task is not None
        gone = False

        def on_gone() -> None:
            nonlocal gone
            gone = True
            task.cancel()

        self._running.add(task)
        writer = StreamWriter(request, wire, cors)
        watcher = asyncio.create_task(call_when_gone(request, poll_s, on_gone))
        try:
            with OPEN_STREAMS.labels(method).track_inprogress():
                return await _relay(request, wire, writer, messages, cors)
        except asyncio.CancelledError:
            if not (gone or self.closing) or task.uncancel() > 0:
                raise
            return await _ended(request, wire, writer, cors, gone)
        finally:
            self._running.discard(task)
            watcher.cancel()
            await messages.aclose()  # type: ignore[attr-defined]


async def _relay(
    request: web.Request,
    wire: WireFormat,
    writer: StreamWriter,
    messages: AsyncIterator[bytes],
    cors: Mapping[str, str],
) -> web.StreamResponse:
    try:
        first = await anext(messages)
    except RequestRefused as refusal:
        return trailers_only(wire, refusal.status, cors)
    except StopAsyncIteration:
        return trailers_only(wire, OK, cors)
    try:
        await writer.start(())
        await writer.send(first)
        status = OK
        try:
            async for message in messages:
                await writer.send(message)
        except RequestRefused as refusal:
            status = refusal.status
        if not is_gone(request):
            await writer.end(status)
    except ConnectionResetError:
        pass  # The browser has gone: nobody to tell.
    return writer.response


async def _ended(
    request: web.Request,
    wire: WireFormat,
    writer: StreamWriter,
    cors: Mapping[str, str],
    gone: bool,
) -> web.StreamResponse:
    """The response of a stream stopped from outside: nothing more for a browser that is
    gone, else a status worth retrying (the gateway is stopping)."""
    if not writer.response.prepared:
        return trailers_only(wire, SHUTTING_DOWN, cors)
    if not gone and not is_gone(request):
        with contextlib.suppress(ConnectionResetError):
            await writer.end(SHUTTING_DOWN)
    return writer.response


LOCAL_STREAMS = web.AppKey("grpcweb_local_streams", LocalStreams)
