"""One forwarded call to a backend, in raw bytes, ending in a Status instead of an exception."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import grpc.aio

from services.gateway.grpcweb.backends import StreamingCall, StreamMethod, UnaryMethod
from services.gateway.grpcweb.metadata import from_backend
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, Status, has_details, refused

log = logging.getLogger(__name__)

# A call the gateway itself cancelled (client gone, shutting down) ends with this status.
CANCELLED_HERE = refused(Code.CANCELLED, "cancelled", "call cancelled by the gateway")
# A backend call that failed in the gRPC library (no service answered it: a refusal of the
# service carries its own ErrorInfo) is told without the library's text, which names
# internal addresses; the log keeps it.
_UNANSWERED = {
    Code.UNAVAILABLE: (
        "service_unavailable",
        "a service behind the gateway did not answer",
    ),
    Code.DEADLINE_EXCEEDED: ("deadline_exceeded", "no answer within the call's deadline"),
    Code.CANCELLED: ("cancelled", "the call was cancelled"),
    Code.RESOURCE_EXHAUSTED: ("message_too_large", "a message was over the size limit"),
}
# The codes the gRPC library ends a call with by itself (a service that ends a call with
# one of them sends its ErrorInfo).
_LIBRARY_CODES = frozenset({*_UNANSWERED, Code.UNKNOWN, Code.INTERNAL})


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
    """Returns the Status carried by a grpc.aio.AioRpcError, status details included; one
    the service did not give itself (no details) in the gateway's words."""
    status = Status(
        Code(err.code().value[0]), err.details() or "", from_backend(err.trailing_metadata())
    )
    if has_details(status) or status.code not in _LIBRARY_CODES:
        return status  # the service's own ending
    log.warning(
        "backend call failed", extra={"fields": {"code": status.code.name, "why": status.message}}
    )
    reason, message = _UNANSWERED.get(status.code, ("internal_error", "the server failed"))
    return refused(status.code, reason, message)


def _this_task_is_cancelled() -> bool:
    # grpc.aio reports a call cancelled from elsewhere (client gone, shutdown) with
    # CancelledError, the same exception that cancels our own task; only the task's
    # cancel count tells them apart.
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0
