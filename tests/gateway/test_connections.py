"""The connection limits of services/gateway/connections.py, on a real aiohttp server and
real sockets: past its cap an address loses its newest connections, an address named
unlimited loses none, and a connection with no complete request is let go once idle."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp import web

from services.gateway.connections import ConnectionCap

pytestmark = pytest.mark.asyncio

IDLE_S = 0.5
REQUEST = b"GET /hold HTTP/1.1\r\nHost: x\r\n\r\n"


class Server:
    def __init__(self, runner: web.AppRunner, port: int, release: asyncio.Event) -> None:
        self.runner, self.port, self.release = runner, port, release
        self.writers: list[asyncio.StreamWriter] = []

    async def connect(self, address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection("127.0.0.1", self.port, local_addr=(address, 0))


@pytest_asyncio.fixture
async def server() -> AsyncIterator[Server]:
    release = asyncio.Event()

    async def hold(request: web.Request) -> web.Response:
        await release.wait()  # a request in progress, as a stream is: never idle
        return web.Response(text="done")

    app = web.Application()
    app.router.add_get("/hold", hold)
    runner = web.AppRunner(app, keepalive_timeout=IDLE_S)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    site_server = site._server
    assert isinstance(site_server, asyncio.Server)
    server = Server(runner, site_server.sockets[0].getsockname()[1], release)
    yield server
    release.set()
    for writer in server.writers:
        writer.close()
    await runner.cleanup()


async def held(server: Server, address: str, count: int) -> list[asyncio.StreamReader]:
    """Open ``count`` connections from ``address``, each with a request in progress."""
    readers = []
    for _ in range(count):
        reader, writer = await server.connect(address)
        writer.write(REQUEST)
        await writer.drain()
        readers.append(reader)
        server.writers.append(writer)  # a writer let go of closes its connection
    while len(server.runner.server.connections if server.runner.server else []) < count:
        await asyncio.sleep(0.01)
    return readers


async def answer(reader: asyncio.StreamReader) -> bytes:
    """Return what the server sent before closing the connection (b"": nothing)."""
    try:
        return await asyncio.wait_for(reader.read(), 10)
    except ConnectionResetError:
        return b""


async def test_past_its_cap_an_address_loses_its_newest_connections(server: Server) -> None:
    readers = await held(server, "127.0.0.2", 5)
    ConnectionCap(server.runner, per_address=3, unlimited=frozenset()).sweep()
    newest = await asyncio.gather(*(answer(r) for r in readers[3:]))
    assert newest == [b"", b""]  # closed with no answer
    server.release.set()
    for reader in readers[:3]:
        got = await answer(reader)
        assert got.endswith(b"done"), got


async def test_an_unlimited_address_and_other_addresses_keep_theirs(server: Server) -> None:
    mine = await held(server, "127.0.0.1", 4)
    theirs = await held(server, "127.0.0.3", 2)
    ConnectionCap(server.runner, per_address=2, unlimited=frozenset({"127.0.0.1"})).sweep()
    server.release.set()
    for reader in mine + theirs:
        got = await answer(reader)
        assert got.endswith(b"done"), got


async def test_headers_that_trickle_in_are_let_go_once_idle(server: Server) -> None:
    reader, writer = await server.connect("127.0.0.2")

    async def trickle() -> None:
        # Headers that never end: a byte now and then, and never the blank line.
        for byte in REQUEST[:-2] + b"X-Filler: " + b"a" * 100_000:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(IDLE_S / 5)

    trickling = asyncio.create_task(trickle())
    try:
        assert await answer(reader) == b""  # closed with no answer
    finally:
        trickling.cancel()
        writer.close()


async def test_a_connection_that_sends_nothing_is_let_go_and_a_busy_one_is_not(
    server: Server,
) -> None:
    silent, writer = await server.connect("127.0.0.2")
    server.writers.append(writer)
    (busy,) = await held(server, "127.0.0.2", 1)
    assert await answer(silent) == b""
    assert not busy.at_eof()  # its request outlived the idle limit and is still served
    server.release.set()
    assert (await answer(busy)).endswith(b"done")
