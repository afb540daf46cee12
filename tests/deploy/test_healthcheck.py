"""The container health probe: gRPC health of a real server, HTTP of a real endpoint."""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from grpc_health.v1 import health_pb2

from services.common.serving import Listen, grpc_server


async def probe(target: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "services.common.healthcheck",
        target,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, err.decode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def test_a_serving_grpc_service_is_healthy_and_a_draining_one_is_not() -> None:
    async with grpc_server(Listen("127.0.0.1", 0, 0), lambda server: []) as (_, port, health):
        assert await probe(f"127.0.0.1:{port}") == (0, "")
        await health.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
        code, why = await probe(f"127.0.0.1:{port}")
        assert code == 1 and "NOT_SERVING" in why


async def test_nothing_listening_is_unhealthy_with_the_reason() -> None:
    code, why = await probe(f"127.0.0.1:{free_port()}")
    assert code == 1 and "UNAVAILABLE" in why


@pytest.fixture
async def http_url() -> AsyncIterator[str]:
    app = web.Application()

    async def ok(request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    app.router.add_get("/healthz", ok)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield f"http://127.0.0.1:{port}"
    await runner.cleanup()


async def test_an_http_endpoint_answering_200_is_healthy_and_a_404_is_not(http_url: str) -> None:
    assert await probe(f"{http_url}/healthz") == (0, "")
    code, why = await probe(f"{http_url}/nope")
    assert code == 1 and "404" in why


async def test_no_target_is_a_usage_error() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "services.common.healthcheck", stderr=asyncio.subprocess.PIPE
    )
    _, err = await process.communicate()
    assert process.returncode == 2 and b"usage" in err
