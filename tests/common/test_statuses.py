"""A streaming handler wrapped by Statuses: what it holds is released when its call ends.

A real grpc.aio server and client. The client reads nothing and has no flow-control
window to spare (no BDP probe), so the server's first large message cannot be written:
the call is cancelled while grpc.aio waits on that write, the one moment a handler's
generator is not running.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, cast

import grpc
import grpc.aio
import pytest

from services.common.rejection import Rejection
from services.common.statuses import Context, Statuses

SERVICE = "photofinish.test.v1.Streams"
LARGE = b"x" * (1024 * 1024)  # far past a stream's 64 KiB window
# A guard against hanging forever, never a speed requirement.
PATIENCE_S = 10.0


class Refused(Exception):
    pass


def rejection(error: Refused) -> Rejection:
    return Rejection(grpc.StatusCode.FAILED_PRECONDITION, "refused", str(error))


STATUSES = Statuses(Refused, rejection)


class Held:
    """A stream that holds something while it runs and notes when it lets it go."""

    def __init__(self) -> None:
        self.sending = asyncio.Event()
        self.held = False
        self.held_at_end: bool | None = None
        self.ended = asyncio.Event()

    @STATUSES.stream
    async def Flood(self, request: bytes, context: Context) -> AsyncGenerator[bytes, None]:
        cast(Any, context).add_done_callback(self._ended)  # the stubs want a _DoneCallback
        self.held = True
        try:
            while True:
                self.sending.set()
                yield LARGE
        finally:
            self.held = False

    def _ended(self, context: object) -> None:
        self.held_at_end = self.held
        self.ended.set()


@pytest.fixture
async def held() -> AsyncIterator[tuple[Held, grpc.aio.Channel]]:
    streams = Held()
    server = grpc.aio.server()
    flood: grpc.RpcMethodHandler[bytes, bytes] = grpc.unary_stream_rpc_method_handler(streams.Flood)
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(SERVICE, {"Flood": flood}),)
    )
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    options = (("grpc.http2.bdp_probe", 0),)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=options) as channel:
        yield streams, channel
    await server.stop(grace=None)


async def test_a_stream_cancelled_while_its_message_is_written_lets_go_before_it_ends(
    held: tuple[Held, grpc.aio.Channel],
) -> None:
    streams, channel = held
    flood: grpc.aio.UnaryStreamMultiCallable[bytes, bytes] = channel.unary_stream(
        f"/{SERVICE}/Flood"
    )
    call = flood(b"")
    async with asyncio.timeout(PATIENCE_S):
        await streams.sending.wait()
        call.cancel()
        await streams.ended.wait()
    assert streams.held_at_end is False
