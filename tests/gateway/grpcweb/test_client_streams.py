"""The gRPC-web client's server streams outlive the session's total timeout: a Watch lasts
its match, and a CLI session made with aiohttp's defaults (five minutes in all) must not cut
it."""

from __future__ import annotations

import asyncio

import aiohttp
from grpc_health.v1 import health_pb2

from clients.grpcweb import GrpcWebClient
from tests.gateway.grpcweb.conftest import Gateway
from tests.gateway.grpcweb.probe import SERVICE

TICKS = f"/{SERVICE}/Ticks"
SESSION_TOTAL_S = 0.3  # the session's whole budget for one request
# Longer than the session's total, between two messages of one stream. A guard, not a
# speed requirement: nothing here fails for being slow.
PAUSE_S = 3 * SESSION_TOTAL_S
PATIENCE_S = 10


SERVING = health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.SERVING)
NOT_SERVING = health_pb2.HealthCheckResponse(status=health_pb2.HealthCheckResponse.NOT_SERVING)


async def test_a_stream_goes_on_past_the_sessions_total_timeout(gateway: Gateway) -> None:
    ticks = gateway.backend.probe.ticks
    timeout = aiohttp.ClientTimeout(total=SESSION_TOTAL_S)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        client = GrpcWebClient(session, gateway.base_url)
        await ticks.put(SERVING.SerializeToString())
        seen: list[health_pb2.HealthCheckResponse] = []
        stream = client.stream(
            TICKS, health_pb2.HealthCheckRequest(), health_pb2.HealthCheckResponse
        )
        async with asyncio.timeout(PATIENCE_S):
            async for reply in stream:
                seen.append(reply)
                if len(seen) == 1:
                    await asyncio.sleep(PAUSE_S)  # past the session's total, mid-stream
                    await ticks.put(NOT_SERVING.SerializeToString())
                    await ticks.put(None)
    assert seen == [SERVING, NOT_SERVING]
