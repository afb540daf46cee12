"""Handler wrappers that end a gRPC call with the status of the service error it raised.

Each service wraps its handlers with the :class:`Statuses` of its own kind of error and
how one becomes a :class:`Rejection` (the one place it meets a status code). Anything
else a handler raises is a bug and reaches grpc as it is (UNKNOWN, logged).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncGenerator, Awaitable, Callable, Coroutine
from typing import Any, Generic, TypeVar, cast

import grpc

from services.common.rejection import Rejection

Context = grpc.aio.ServicerContext[Any, Any]
E = TypeVar("E", bound=Exception)
S = TypeVar("S")
Req = TypeVar("Req")
Resp = TypeVar("Resp")


class Statuses(Generic[E]):
    """Handler wrappers that end a call whose handler raised a ``kind`` with its status."""

    def __init__(self, kind: type[E], rejection_of: Callable[[E], Rejection]) -> None:
        self.kind = kind
        self.rejection_of = rejection_of

    def unary(
        self, handler: Callable[[S, Req, Context], Awaitable[Resp]]
    ) -> Callable[[S, Req, Context], Coroutine[Any, Any, Resp]]:
        """Return ``handler`` with its errors sent as statuses."""

        @functools.wraps(handler)
        async def handle(service: S, request: Req, context: Context) -> Resp:
            try:
                return await handler(service, request, context)
            except self.kind as error:
                await context.abort_with_status(self.rejection_of(error).to_status())

        return handle

    def stream(
        self, handler: Callable[[S, Req, Context], AsyncGenerator[Resp, None]]
    ) -> Callable[[S, Req, Context], AsyncGenerator[Resp, None]]:
        """Return the streaming ``handler`` with its errors sent as statuses.

        The handler's messages are written here (grpc.aio's reader/writer form), not
        yielded to grpc: grpc.aio awaits a yielded message's write outside the generator,
        and a cancel that lands during that write would leave the generator, and the
        handler's ``async with`` (a ticket, a challenge), open until the garbage collector
        finalizes it. Written here, the cancel ends the handler at once, wherever it is.
        """

        @functools.wraps(handler)
        async def handle(service: S, request: Req, context: Context) -> None:
            try:
                async with contextlib.aclosing(handler(service, request, context)) as responses:
                    async for response in responses:
                        await context.write(response)
            except self.kind as error:
                await context.abort_with_status(self.rejection_of(error).to_status())

        # grpc.aio serves a coroutine handler as it does a generator; the stubs of the
        # servicers it is applied to name only the generator.
        return cast(Callable[[S, Req, Context], AsyncGenerator[Resp, None]], handle)
