"""A refused request as a gRPC status: code, a stable reason string and details.

Each layer maps its own reasons to a transport code in exactly one place and raises a
:class:`Rejection`; the reason travels as ``google.rpc.ErrorInfo.reason`` (domain
``photofinish``) so clients branch on it, never on the message text.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from photofinish.events.v1 import events_pb2
from wire.grpcweb.status import rich_status

_CODES = {code.value[0]: code for code in grpc.StatusCode}


class Rejection(Exception):
    """A request turned away with a gRPC ``code``, a ``reason`` and human ``message``."""

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        message: str,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = dict(metadata or {})

    def to_status(self) -> grpc.Status:
        """Return the rich status (with ErrorInfo) for ``context.abort_with_status``."""
        return rpc_status.to_status(self.rich_status())

    def rich_status(self) -> status_pb2.Status:
        """Return the google.rpc.Status: the code, the message and the ErrorInfo."""
        return rich_status(self.code.value[0], self.reason, self.message, self.metadata)

    def to_refusal(self) -> events_pb2.Refusal:
        """Return this rejection as it crosses an internal NATS hop."""
        return events_pb2.Refusal(
            code=self.code.value[0],
            reason=self.reason,
            message=self.message,
            metadata=self.metadata,
        )

    async def abort(self, context: grpc.aio.ServicerContext[object, object]) -> None:
        """End the current RPC with this rejection."""
        # The arbitration keeps a refusal to answer retries with: not the frames it crossed
        # (they hold the request and its context alive).
        self.__traceback__ = None
        await context.abort_with_status(self.to_status())


def from_rpc_error(error: grpc.aio.AioRpcError) -> Rejection:
    """Return the rejection an RPC error carries (reason "" when it has no ErrorInfo)."""
    reason, metadata = "", {}
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    if status is not None:
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                reason, metadata = info.reason, dict(info.metadata)
    message = error.details() or ""
    prefix = f"{reason}: "
    if reason and message.startswith(prefix):
        message = message[len(prefix) :]
    return Rejection(error.code(), reason, message, metadata)


def status_code(number: int) -> grpc.StatusCode:
    """Return the gRPC status code with wire value ``number`` (UNKNOWN for none)."""
    return _CODES.get(number, grpc.StatusCode.UNKNOWN)


def from_refusal(refusal: events_pb2.Refusal) -> Rejection:
    """Return the rejection a refusal from an internal NATS hop stands for."""
    code = status_code(refusal.code)
    return Rejection(code, refusal.reason, refusal.message, dict(refusal.metadata))
