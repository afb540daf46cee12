"""Unary calls through the gateway to a real gRPC server, in binary and text formats."""

from __future__ import annotations

import json

import pytest
from grpc_health.v1 import health_pb2

from tests.gateway.grpcweb import webclient
from tests.gateway.grpcweb.conftest import Gateway
from tests.gateway.grpcweb.probe import DETAILS, SERVICE


@pytest.mark.parametrize("content_type", [webclient.BINARY, webclient.TEXT])
async def test_health_check_answers_serving(gateway: Gateway, content_type: str) -> None:
    request = health_pb2.HealthCheckRequest(service="").SerializeToString()
    reply = await webclient.call(
        gateway.session,
        gateway.url("/grpc.health.v1.Health/Check"),
        request,
        content_type=content_type,
    )
    assert reply.http_status == 200
    assert reply.status == 0
    [message] = reply.messages
    assert health_pb2.HealthCheckResponse.FromString(message).status == (
        health_pb2.HealthCheckResponse.SERVING
    )


async def test_text_request_gets_a_text_response(gateway: Gateway) -> None:
    reply = await webclient.call(
        gateway.session, gateway.url(f"/{SERVICE}/Echo"), b"hi", content_type=webclient.TEXT
    )
    assert reply.headers["Content-Type"] == "application/grpc-web-text+proto"
    assert reply.messages == [b"hi"]


async def test_bytes_pass_through_untouched_with_backend_metadata(gateway: Gateway) -> None:
    payload = bytes(range(256))
    reply = await webclient.call(gateway.session, gateway.url(f"/{SERVICE}/Echo"), payload)
    assert reply.messages == [payload]
    assert reply.headers["Content-Type"] == "application/grpc-web+proto"
    assert reply.headers["x-pf-served-by"] == "probe"
    assert reply.trailers == {"grpc-status": "0", "x-pf-echo": "yes"}
    assert "grpc-status" not in reply.headers


async def test_backend_sees_forwarded_headers_hook_metadata_and_deadline(gateway: Gateway) -> None:
    reply = await webclient.call(
        gateway.session,
        gateway.url(f"/{SERVICE}/Seen"),
        headers={
            "Authorization": "Bearer good",
            "X-PF-Client-Seq": "42",
            "X-PF-Player": "forged",
            "Cookie": "secret=1",
            "grpc-timeout": "30S",
        },
    )
    seen = json.loads(reply.messages[0])
    metadata = dict(seen["metadata"])
    assert metadata["authorization"] == "Bearer good"
    assert metadata["x-pf-client-seq"] == "42"
    assert metadata["x-pf-player"] == "player-1"
    assert [key for key, _ in seen["metadata"]].count("x-pf-player") == 1
    assert int(metadata["x-pf-received-ns"]) > 0
    assert "cookie" not in metadata
    # gRPC rounds deadlines on the wire; a wide window still tells 30 s from "no deadline".
    assert 10 < seen["time_remaining"] < 60


async def test_hook_refusal_ends_the_call_before_the_backend(gateway: Gateway) -> None:
    reply = await webclient.call(
        gateway.session,
        gateway.url(f"/{SERVICE}/Echo"),
        headers={"Authorization": "Bearer revoked"},
    )
    assert (reply.status, reply.message) == (16, "token revoked")


@pytest.mark.parametrize("content_type", [webclient.BINARY, webclient.TEXT])
async def test_backend_error_arrives_trailers_only_with_details(
    gateway: Gateway, content_type: str
) -> None:
    message = "tile [3|5] — not 100% yours"
    reply = await webclient.call(
        gateway.session,
        gateway.url(f"/{SERVICE}/Fail"),
        json.dumps({"code": 5, "message": message}).encode(),
        content_type=content_type,
    )
    assert reply.http_status == 200
    assert reply.messages == []
    assert (reply.status, reply.message) == (5, message)
    assert reply.trailers["grpc-message"] == "tile [3|5] %E2%80%94 not 100%25 yours"
    assert webclient.from_binary_header(reply.trailers["grpc-status-details-bin"]) == DETAILS
    assert reply.trailers["x-pf-reason"] == "no_match"
    # Trailers-only: the same status is readable from the HTTP headers.
    assert reply.headers["grpc-status"] == "5"
    assert reply.headers["grpc-message"] == reply.trailers["grpc-message"]
    assert reply.headers["grpc-status-details-bin"] == reply.trailers["grpc-status-details-bin"]


async def test_method_missing_on_the_backend_is_unimplemented_from_the_backend(
    gateway: Gateway,
) -> None:
    reply = await webclient.call(gateway.session, gateway.url(f"/{SERVICE}/NotOnTheBackend"))
    assert reply.status == 12


async def test_unreachable_backend_is_unavailable(gateway: Gateway) -> None:
    reply = await webclient.call(gateway.session, gateway.url(f"/{SERVICE}/Nowhere"))
    assert reply.status == 14
    # In the gateway's words: the gRPC library's text names internal addresses.
    assert reply.reason == "service_unavailable"
    assert reply.message == "service_unavailable: a service behind the gateway did not answer"


async def test_grpc_timeout_becomes_the_backend_deadline(gateway: Gateway) -> None:
    reply = await webclient.call(
        gateway.session, gateway.url(f"/{SERVICE}/Hang"), headers={"grpc-timeout": "50m"}
    )
    assert (reply.status, reply.reason) == (4, "deadline_exceeded")
    await gateway.backend.probe.hang_cancelled.wait()
