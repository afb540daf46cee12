"""A real grpc.aio backend (health + probe) and the gateway in front of it, on ephemeral ports."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import grpc.aio
import pytest
from aiohttp import web
from grpc_health.v1 import health, health_pb2_grpc

from services.gateway.grpcweb import GrpcWebConfig, HeaderPolicy, RequestRefused, Route, setup
from tests.gateway.grpcweb.probe import SERVICE, Probe
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, Status

MAX_MESSAGE_BYTES = 1024
BODY_TIMEOUT_S = 0.5  # short, so a trickling body is cut in a test


@dataclass
class Backend:
    port: int
    health: health.aio.HealthServicer
    probe: Probe


@dataclass
class Gateway:
    """The gateway under test and a plain HTTP session to call it with."""

    runner: web.AppRunner
    base_url: str
    session: aiohttp.ClientSession
    backend: Backend

    def url(self, path: str) -> str:
        return self.base_url + path


@pytest.fixture
async def backend() -> AsyncIterator[Backend]:
    server = grpc.aio.server()
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    probe = Probe()
    server.add_generic_rpc_handlers((probe.handler(),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    yield Backend(port, health_servicer, probe)
    await server.stop(grace=None)


async def stamp(request: web.Request, route: Route) -> Metadata:
    """The tests' metadata hook: refuses one token, stamps a player and a receipt time."""
    if request.headers.get("Authorization") == "Bearer revoked":
        raise RequestRefused(Status(Code.UNAUTHENTICATED, "token revoked"))
    return (("x-pf-player", "player-1"), ("x-pf-received-ns", str(time.monotonic_ns())))


def gateway_config(port: int) -> GrpcWebConfig:
    probe = f"/{SERVICE}"
    return GrpcWebConfig(
        routes={
            "/grpc.health.v1.Health/Check": Route.unary("backend"),
            "/grpc.health.v1.Health/Watch": Route.server_streaming("backend"),
            f"{probe}/Echo": Route.unary("backend"),
            f"{probe}/Seen": Route.unary("backend"),
            f"{probe}/Fail": Route.unary("backend"),
            f"{probe}/Hang": Route.unary("backend"),
            f"{probe}/Ticks": Route.server_streaming("backend"),
            f"{probe}/NotOnTheBackend": Route.unary("backend"),
            f"{probe}/Nowhere": Route.unary("closed"),
        },
        # Port 1 on loopback: nothing listens there, so calls fail fast with UNAVAILABLE.
        backends={"backend": f"127.0.0.1:{port}", "closed": "127.0.0.1:1"},
        max_message_bytes=MAX_MESSAGE_BYTES,
        headers=HeaderPolicy(reserved=frozenset({"x-pf-player", "x-pf-received-ns"})),
        body_timeout_s=BODY_TIMEOUT_S,
    )


async def start_gateway(
    backend: Backend, *, handler_cancellation: bool = True
) -> AsyncIterator[Gateway]:
    """Serves the gateway as production does: an AppRunner on a TCP site (port 0), which
    cancels a handler when its client disconnects unless told not to."""
    app = web.Application()
    setup(app, gateway_config(backend.port), stamp)
    runner = web.AppRunner(app, handler_cancellation=handler_cancellation)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        async with aiohttp.ClientSession() as session:
            yield Gateway(runner, f"http://{host}:{port}", session, backend)
    finally:
        await runner.cleanup()


@pytest.fixture
async def gateway(backend: Backend) -> AsyncIterator[Gateway]:
    async for running in start_gateway(backend):
        yield running


@pytest.fixture
async def gateway_not_cancelling_handlers(backend: Backend) -> AsyncIterator[Gateway]:
    """A gateway under aiohttp's default runner, which lets a handler run on when its
    client disconnects: only a failed write shows the loss."""
    async for running in start_gateway(backend, handler_cancellation=False):
        yield running
