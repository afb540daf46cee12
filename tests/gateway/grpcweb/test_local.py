"""Methods the gateway answers itself: streamed as they yield, ended as a backend's are."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2

from services.gateway.grpcweb import GrpcWebConfig, MethodKind, RequestRefused, Route, setup
from tests.gateway.grpcweb import webclient
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, Status

TICKS = "/t.Local/Ticks"
PATIENCE_S = 5.0


@dataclass
class Ticker:
    """A local stream: yields what the test puts in, refuses on request, notes its end."""

    ticks: asyncio.Queue[bytes | None] = field(default_factory=asyncio.Queue)
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    async def stream(self, request: Message, metadata: Metadata) -> AsyncIterator[bytes]:
        try:
            while True:
                tick = await self.ticks.get()
                if tick is None:
                    raise RequestRefused(Status(Code.NOT_FOUND, "no more ticks"))
                yield tick
        finally:
            self.closed.set()


async def serve(ticker: Ticker) -> tuple[web.AppRunner, str]:
    route = Route(MethodKind.SERVER_STREAMING, "gateway", request=health_pb2.HealthCheckRequest)
    config = GrpcWebConfig(routes={TICKS: route}, backends={}, local={TICKS: ticker.stream})
    app = web.Application()
    setup(app, config)
    runner = web.AppRunner(app, handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    return runner, f"http://{host}:{port}{TICKS}"


def post(session: aiohttp.ClientSession, url: str) -> aiohttp.client._RequestContextManager:
    headers = {"Content-Type": webclient.BINARY, "X-Grpc-Web": "1"}
    return session.post(url, data=webclient.frame(b""), headers=headers)


async def test_messages_go_out_as_yielded_and_a_refusal_ends_the_stream() -> None:
    ticker = Ticker()
    runner, url = await serve(ticker)
    try:
        await ticker.ticks.put(b"one")  # the response's headers go out with the first message
        async with aiohttp.ClientSession() as session, post(session, url) as response:
            assert await webclient.read_frame(response.content) == (0, b"one")
            await ticker.ticks.put(None)
            flag, block = await webclient.read_frame(response.content)
        assert flag == 0x80
        assert block == b"grpc-status: 5\r\ngrpc-message: no more ticks\r\n"
        assert ticker.closed.is_set()
    finally:
        await runner.cleanup()


async def test_a_browser_leaving_an_idle_stream_closes_it() -> None:
    ticker = Ticker()
    runner, url = await serve(ticker)
    try:
        async with asyncio.timeout(PATIENCE_S), aiohttp.ClientSession() as session:
            await ticker.ticks.put(b"one")
            async with post(session, url) as response:
                assert await webclient.read_frame(response.content) == (0, b"one")
                response.close()
            await ticker.closed.wait()  # the handler was cancelled; the generator ended
    finally:
        await runner.cleanup()


async def test_gateway_shutdown_ends_a_local_stream_with_unavailable() -> None:
    ticker = Ticker()
    runner, url = await serve(ticker)
    await ticker.ticks.put(b"one")
    async with (
        asyncio.timeout(PATIENCE_S),
        aiohttp.ClientSession() as session,
        post(session, url) as response,
    ):
        assert await webclient.read_frame(response.content) == (0, b"one")
        closing = asyncio.create_task(runner.cleanup())
        rest = await response.content.read()
        await closing
    reply = webclient.parse(webclient.Reply(response.status, response.headers), rest)
    assert (reply.status, reply.reason) == (14, "gateway_stopping")
    assert reply.message == "gateway_stopping: the gateway is shutting down; call again"
    assert ticker.closed.is_set()
