"""CORS as a browser meets it: the preflight, then headers on the actual gRPC-web response."""

from __future__ import annotations

from tests.gateway.grpcweb import webclient
from tests.gateway.grpcweb.conftest import Gateway
from tests.gateway.grpcweb.probe import SERVICE

SITE = "http://localhost:5173"


async def test_preflight_allows_the_grpc_web_headers(gateway: Gateway) -> None:
    async with gateway.session.options(
        gateway.url(f"/{SERVICE}/Echo"),
        headers={
            "Origin": SITE,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": (
                "content-type,x-grpc-web,x-user-agent,x-pf-client-seq"
            ),
        },
    ) as response:
        assert response.status == 204
        headers = response.headers
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in headers["Access-Control-Allow-Methods"]
    allowed = set(headers["Access-Control-Allow-Headers"].split(", "))
    assert {
        "content-type",
        "x-grpc-web",
        "x-user-agent",
        "grpc-timeout",
        "authorization",
        "x-pf-client-seq",
    } <= allowed


async def test_responses_expose_the_grpc_status_headers(gateway: Gateway) -> None:
    reply = await webclient.call(
        gateway.session, gateway.url(f"/{SERVICE}/Echo"), b"x", headers={"Origin": SITE}
    )
    assert reply.headers["Access-Control-Allow-Origin"] == "*"
    exposed = reply.headers["Access-Control-Expose-Headers"].split(", ")
    assert exposed == ["grpc-status", "grpc-message", "grpc-status-details-bin"]


async def test_refusals_carry_cors_headers_too(gateway: Gateway) -> None:
    reply = await webclient.call(
        gateway.session, gateway.url("/photofinish.nope.v1.Nope/Do"), headers={"Origin": SITE}
    )
    assert reply.status == 12
    assert reply.headers["Access-Control-Allow-Origin"] == "*"
