"""Methods the gateway answers itself, in-process: no backend call in between.

A local unary method returns its reply's bytes; a local server stream yields each
message's bytes. Either ends the call with another status by raising
:class:`RequestRefused` (a stream may do so before its first message or after any).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Mapping

from aiohttp import web
from google.protobuf.message import Message

from services.gateway.grpcweb.calls import CANCELLED_HERE
from services.gateway.grpcweb.config import LocalUnary
from services.gateway.grpcweb.formats import WireFormat
from services.gateway.grpcweb.metrics import UNARY_SECONDS
from services.gateway.grpcweb.refusal import RequestRefused
from services.gateway.grpcweb.response import trailers_only, unary
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, Status

OK = Status(Code.OK)


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


class LocalCall:
    """A local server stream read as a backend call is (``forward.ServerStream``).

    Cancelling it cancels the handler's task while it waits for the next message (that
    is how a waiting generator is stopped); the stream then ends with CANCELLED_HERE, as
    a cancelled backend call does. The generator is closed by :meth:`close`.
    """

    def __init__(self, messages: AsyncIterator[bytes]) -> None:
        self._messages = messages
        task = asyncio.current_task()
        assert task is not None, "a local stream is read inside its handler's task"
        self._task = task
        self._reading = False
        self._cancelled = False

    async def next(self) -> bytes | Status:
        if self._cancelled:
            return CANCELLED_HERE
        self._reading = True
        try:
            return await anext(self._messages)
        except RequestRefused as refusal:
            return refusal.status
        except StopAsyncIteration:
            return OK
        except asyncio.CancelledError:
            if self._cancelled and self._task.uncancel() == 0:
                return CANCELLED_HERE
            raise
        finally:
            self._reading = False

    async def headers(self) -> Metadata:
        return ()

    def cancel(self) -> None:
        if self._cancelled:
            return
        self._cancelled = True
        if self._reading:
            self._task.cancel()

    async def close(self) -> None:
        """Closes the generator (its ``finally`` runs: a subscription ends, say)."""
        await self._messages.aclose()  # type: ignore[attr-defined]
