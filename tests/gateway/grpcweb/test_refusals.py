"""Requests the gateway turns away itself: a gRPC status in trailers, never an HTTP 500."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import pytest

from services.common.ratelog import RateLimitedWarnings
from services.gateway.grpcweb import proxy
from tests.gateway.grpcweb import webclient
from tests.gateway.grpcweb.conftest import BODY_TIMEOUT_S, MAX_MESSAGE_BYTES, Gateway
from tests.gateway.grpcweb.probe import SERVICE

ECHO = f"/{SERVICE}/Echo"


async def test_method_off_the_allow_list_is_unimplemented(gateway: Gateway) -> None:
    reply = await webclient.call(gateway.session, gateway.url("/photofinish.secret.v1.Admin/Wipe"))
    assert reply.http_status == 200
    assert reply.status == 12
    assert reply.message == (
        "unknown_method: method /photofinish.secret.v1.Admin/Wipe is not served by this gateway"
    )
    assert reply.reason == "unknown_method"
    assert reply.headers["grpc-status"] == "12"


@pytest.mark.parametrize("content_type", [webclient.BINARY, webclient.TEXT])
async def test_garbage_body_is_invalid_argument(gateway: Gateway, content_type: str) -> None:
    body = b"this is not a gRPC-web frame"
    reply = await webclient.call(
        gateway.session, gateway.url(ECHO), content_type=content_type, body=body
    )
    assert (reply.http_status, reply.status) == (200, 3)
    assert reply.message.startswith(
        "unknown_flag: frame flag 0x74 is not defined"
        if content_type == webclient.BINARY
        else "bad_base64: body is not base64"
    )
    assert reply.reason == ("unknown_flag" if content_type == webclient.BINARY else "bad_base64")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "request body holds no message frame"),
        (webclient.frame(b"hello")[:-2], "frame declares 5 bytes but only 3 arrived"),
        (webclient.frame(b"a") + webclient.frame(b"b"), "6 bytes follow the request message"),
        (webclient.frame(b"a") + b"\x00\x00", "2 bytes follow the request message"),
        (webclient.frame(b"a", flag=0x01), "message is flagged compressed"),
    ],
)
async def test_malformed_framing_is_invalid_argument_with_a_clear_message(
    gateway: Gateway, body: bytes, message: str
) -> None:
    reply = await webclient.call(gateway.session, gateway.url(ECHO), body=body)
    assert (reply.http_status, reply.status) == (200, 3)
    assert reply.reason  # every refusal names its reason (docs/protocol.md)
    assert reply.message.startswith(f"{reply.reason}: {message}")


async def test_oversize_message_is_resource_exhausted(gateway: Gateway) -> None:
    reply = await webclient.call(gateway.session, gateway.url(ECHO), b"x" * (MAX_MESSAGE_BYTES + 1))
    assert (reply.http_status, reply.status) == (200, 8)
    assert reply.message == (
        f"message_too_large: message of {MAX_MESSAGE_BYTES + 1} bytes is over the limit of 1024"
    )
    assert reply.reason == "message_too_large"


async def test_huge_declared_length_is_refused_without_waiting_for_the_bytes(
    gateway: Gateway,
) -> None:
    reply = await webclient.call(gateway.session, gateway.url(ECHO), body=b"\x00\xff\xff\xff\xff")
    assert reply.status == 8


async def test_bad_grpc_timeout_is_invalid_argument(gateway: Gateway) -> None:
    reply = await webclient.call(
        gateway.session, gateway.url(ECHO), headers={"grpc-timeout": "soon"}
    )
    assert reply.status == 3
    assert "grpc-timeout 'soon'" in reply.message


async def test_compressed_encoding_is_unimplemented(gateway: Gateway) -> None:
    reply = await webclient.call(
        gateway.session, gateway.url(ECHO), headers={"grpc-encoding": "gzip"}
    )
    assert reply.status == 12
    assert "grpc-encoding gzip" in reply.message


async def test_other_content_types_get_http_415(gateway: Gateway) -> None:
    async with gateway.session.post(
        gateway.url(ECHO), data=b"{}", headers={"Content-Type": "application/json"}
    ) as response:
        assert response.status == 415


async def test_get_is_not_allowed(gateway: Gateway) -> None:
    async with gateway.session.get(gateway.url(ECHO)) as response:
        assert response.status == 405


async def test_a_body_that_trickles_in_is_cut_at_the_body_timeout(gateway: Gateway) -> None:
    stop = asyncio.Event()

    async def trickle() -> AsyncIterator[bytes]:
        yield webclient.frame(b"hello")[:3]  # a frame begun, then nothing for a long while
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 10 * BODY_TIMEOUT_S)

    sent = {"Content-Type": webclient.BINARY, "X-Grpc-Web": "1"}
    started = asyncio.get_running_loop().time()
    async with gateway.session.post(gateway.url(ECHO), data=trickle(), headers=sent) as response:
        reply = webclient.parse(
            webclient.Reply(response.status, response.headers), await response.read()
        )
    stop.set()
    assert (reply.status, reply.reason) == (4, "body_timeout")
    assert asyncio.get_running_loop().time() - started < 10 * BODY_TIMEOUT_S


async def test_a_malformed_request_is_logged_once_without_a_traceback(
    gateway: Gateway, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(proxy, "MALFORMED", RateLimitedWarnings(logging.getLogger("gateway")))
    with caplog.at_level(logging.WARNING):
        for _ in range(15):
            await webclient.call(gateway.session, gateway.url(ECHO), body=b"not a frame")
    lines = [r for r in caplog.records if r.getMessage() == "malformed request refused"]
    assert len(lines) == 10  # then held back, and counted
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in lines)
    assert lines[0].fields["reason"] == "unknown_flag"  # type: ignore[attr-defined]
    assert lines[0].fields["path"] == ECHO  # type: ignore[attr-defined]
