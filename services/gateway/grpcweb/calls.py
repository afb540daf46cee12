"""One forwarded call to a backend, in raw bytes, ending in a Status instead of an exception."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import grpc.aio

from services.gateway.grpcweb.backends import StreamingCall, StreamMethod, UnaryMethod
from services.gateway.grpcweb.metadata import from_backend
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, Status

# A call the gateway itself cancelled (client gone, shutting down) ends with this status.
CANCELLED_HERE = Status(Code.CANCELLED, "call cancelled by the gateway")


@dataclass(frozen=True, slots=True)
class Outgoing:
    """What goes to the backend: method path, message bytes, metadata, deadline."""

    path: str
    message: bytes
    metadata: Metadata
    timeout_s: float | None
    target: str = ""  # one instance of the backend; empty: its configured address


@dataclass(frozen=True, slots=True)
class UnaryReply:
    """A unary call's outcome: response headers, the message (None on error), the status."""

    headers: Metadata
    message: bytes | None
    status: Status


async def call_unary(method: UnaryMethod, outgoing: Outgoing) -> UnaryReply:
    """Returns the backend's reply to a unary call; the call is cancelled if we are."""
    call = method(outgoing.message, metadata=outgoing.metadata, timeout=outgoing.timeout_s)
    try:
        message = await call
    except grpc.aio.AioRpcError as err:
        return UnaryReply(from_backend(err.initial_metadata()), None, status_of(err))
    except asyncio.CancelledError:
        if _this_task_is_cancelled():
            raise
        return UnaryReply((), None, CANCELLED_HERE)
    finally:
        call.cancel()  # a no-op once done; stops the backend if this handler was cancelled
    trailers = from_backend(await call.trailing_metadata())
    return UnaryReply(
        from_backend(await call.initial_metadata()), message, Status(Code.OK, "", trailers)
    )


class StreamCall:
    """A server-streaming backend call, read one message at a time."""

    def __init__(self, method: StreamMethod, outgoing: Outgoing) -> None:
        self.call: StreamingCall = method(
            outgoing.message, metadata=outgoing.metadata, timeout=outgoing.timeout_s
        )
        self._ended_with: Metadata | None = None

    async def next(self) -> bytes | Status:
        """Returns the next message, or the final status once the stream has ended."""
        try:
            message = await self.call.read()
        except grpc.aio.AioRpcError as err:
            self._ended_with = from_backend(err.initial_metadata())
            return status_of(err)
        except asyncio.CancelledError:
            if _this_task_is_cancelled():
                raise
            self._ended_with = ()
            return CANCELLED_HERE
        if isinstance(message, bytes):
            return message
        # grpc.aio.EOF: the stream ended with OK (any error was raised above).
        return Status(Code.OK, "", from_backend(await self.call.trailing_metadata()))

    async def headers(self) -> Metadata:
        """Returns the backend's response headers (initial metadata), none if cancelled here."""
        if self._ended_with is not None:
            return self._ended_with
        return from_backend(await self.call.initial_metadata())

    def cancel(self) -> None:
        """Cancels the backend call; a no-op once it has ended."""
        self.call.cancel()


def status_of(err: grpc.aio.AioRpcError) -> Status:
    """Returns the Status carried by a grpc.aio.AioRpcError, status details included."""
    return Status(
        Code(err.code().value[0]), err.details() or "", from_backend(err.trailing_metadata())
    )


def _this_task_is_cancelled() -> bool:
    # grpc.aio reports a call cancelled from elsewhere (client gone, shutdown) with
    # CancelledError, the same exception that cancels our own task; only the task's
    # cancel count tells them apart.
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
