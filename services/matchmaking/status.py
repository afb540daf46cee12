"""Matchmaking errors as gRPC statuses: the one place a kind of error meets a status code.

Handlers are wrapped with :func:`unary` or :func:`stream`; a :class:`MatchmakingError`
they raise ends the call with the kind's code and the reason as ``ErrorInfo.reason``.
Anything else is a bug and reaches grpc as it is (UNKNOWN, logged).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncGenerator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import grpc

from services.common.rejection import Rejection
from services.matchmaking.errors import (
    Malformed,
    MatchmakingError,
    NotFound,
    Refused,
    Superseded,
    Unauthenticated,
    Unavailable,
)

CODES: dict[type[MatchmakingError], grpc.StatusCode] = {
    Unauthenticated: grpc.StatusCode.UNAUTHENTICATED,
    Malformed: grpc.StatusCode.INVALID_ARGUMENT,
    NotFound: grpc.StatusCode.NOT_FOUND,
    Refused: grpc.StatusCode.FAILED_PRECONDITION,
    Superseded: grpc.StatusCode.ABORTED,
    Unavailable: grpc.StatusCode.UNAVAILABLE,
}

Context = grpc.aio.ServicerContext[Any, Any]
S = TypeVar("S")
Req = TypeVar("Req")
Resp = TypeVar("Resp")


def rejection(error: MatchmakingError) -> Rejection:
    """Return ``error`` as the rich gRPC status every service sends."""
    return Rejection(CODES[type(error)], error.reason.value, error.detail)


def unary(
    handler: Callable[[S, Req, Context], Awaitable[Resp]],
) -> Callable[[S, Req, Context], Coroutine[Any, Any, Resp]]:
    """Return ``handler`` with its matchmaking errors sent as statuses."""

    @functools.wraps(handler)
    async def handle(self: S, request: Req, context: Context) -> Resp:
        try:
            return await handler(self, request, context)
        except MatchmakingError as error:
            await context.abort_with_status(rejection(error).to_status())

    return handle


def stream(
    handler: Callable[[S, Req, Context], AsyncGenerator[Resp, None]],
) -> Callable[[S, Req, Context], AsyncGenerator[Resp, None]]:
    """Return the streaming ``handler`` with its matchmaking errors sent as statuses."""

    @functools.wraps(handler)
    async def handle(self: S, request: Req, context: Context) -> AsyncGenerator[Resp, None]:
        try:
            # Closed here, not left to the garbage collector, so a handler's ``async with``
            # (a ticket, a challenge) is released as soon as the client goes away.
            async with contextlib.aclosing(handler(self, request, context)) as responses:
                async for response in responses:
                    yield response
        except MatchmakingError as error:
            await context.abort_with_status(rejection(error).to_status())

    return handle
