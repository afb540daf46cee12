"""A raw-bytes gRPC service for the gateway tests: echoes, fails on demand, streams on cue.

Registered with generic handlers and no serializers, like the gateway's own calls, so the
tests need no generated code. It records what it saw so tests can check the far side.
"""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import grpc
import grpc.aio
from prometheus_client import REGISTRY

SERVICE = "photofinish.probe.v1.Probe"
DETAILS = b"\x08\x05\x12\x0dno such match"  # stands in for a google.rpc.Status


class Probe:
    """The servicer, with a queue that drives `Ticks` and events that record its end."""

    def __init__(self) -> None:
        # Each item is a message to send, None to end with OK, or (code, message) to fail.
        self.ticks: asyncio.Queue[bytes | tuple[grpc.StatusCode, str] | None] = asyncio.Queue()
        self.ticks_started = asyncio.Event()
        self.ticks_cancelled = asyncio.Event()
        self.hang_cancelled = asyncio.Event()
        # For each Seen call: had a Ticks stream been cancelled by then?
        self.seen_after_ticks_cancelled: list[bool] = []
        # For each Seen call: the Ticks streams the gateway (in this process) still held open.
        self.ticks_open_at_gateway: list[float] = []

    def handler(self) -> grpc.GenericRpcHandler:
        return grpc.method_handlers_generic_handler(
            SERVICE,
            {
                "Echo": grpc.unary_unary_rpc_method_handler(self.echo),
                "Seen": grpc.unary_unary_rpc_method_handler(self.seen),
                "Fail": grpc.unary_unary_rpc_method_handler(self.fail),
                "Hang": grpc.unary_unary_rpc_method_handler(self.hang),
                "Ticks": grpc.unary_stream_rpc_method_handler(self.ticks_stream),
            },
        )

    async def echo(self, request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
        await context.send_initial_metadata((("x-pf-served-by", "probe"),))
        context.set_trailing_metadata((("x-pf-echo", "yes"),))
        return request

    async def seen(self, request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
        """Returns, as JSON, the metadata and deadline the backend received."""
        self.seen_after_ticks_cancelled.append(self.ticks_cancelled.is_set())
        open_streams = REGISTRY.get_sample_value("pf_gateway_open_streams", {"method": "Ticks"})
        self.ticks_open_at_gateway.append(open_streams or 0.0)
        metadata = [
            [key, base64.b64encode(value).decode() if isinstance(value, bytes) else value]
            for key, value in context.invocation_metadata() or ()
        ]
        remaining = context.time_remaining()
        return json.dumps({"metadata": metadata, "time_remaining": remaining}).encode()

    async def fail(self, request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
        """Fails with the code and message named in the JSON request, with status details."""
        asked = json.loads(request)
        code = next(c for c in grpc.StatusCode if c.value[0] == asked["code"])
        trailers = (("grpc-status-details-bin", DETAILS), ("x-pf-reason", "no_match"))
        await context.abort(code, asked["message"], trailers)

    async def hang(self, request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> bytes:
        try:
            await asyncio.Event().wait()
        finally:
            self.hang_cancelled.set()
        return b""

    async def ticks_stream(
        self, request: bytes, context: grpc.aio.ServicerContext[Any, Any]
    ) -> None:
        # Written here, not yielded: grpc.aio writes a yielded message outside the
        # generator, and a cancel that lands during that write never reaches it.
        self.ticks_started.set()
        try:
            while (item := await self.ticks.get()) is not None:
                if isinstance(item, tuple):
                    await context.abort(*item)
                await context.write(item)
        except asyncio.CancelledError:
            self.ticks_cancelled.set()
            raise
