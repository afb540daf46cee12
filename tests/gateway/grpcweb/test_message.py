"""Reading the one request message: both wire formats, and every way a body can be wrong."""

from __future__ import annotations

import base64

import pytest

from services.gateway.grpcweb.formats import WireFormat, wire_format
from services.gateway.grpcweb.message import MessageReader
from wire.grpcweb.errors import MalformedRequest, Reason
from wire.grpcweb.framing import encode_frame

LIMIT = 64


def read(body: bytes, wire: WireFormat = WireFormat.BINARY, chunk: int = 3) -> bytes:
    reader = MessageReader(wire, LIMIT)
    for start in range(0, len(body), chunk):
        reader.feed(body[start : start + chunk])
    return reader.finish()


def refusal(body: bytes, wire: WireFormat = WireFormat.BINARY) -> MalformedRequest:
    with pytest.raises(MalformedRequest) as err:
        read(body, wire)
    return err.value


@pytest.mark.parametrize(
    ("content_type", "wire"),
    [
        ("application/grpc-web", WireFormat.BINARY),
        ("application/grpc-web+proto", WireFormat.BINARY),
        ("Application/GRPC-Web-Text", WireFormat.TEXT),
        ("application/grpc-web-text+proto", WireFormat.TEXT),
        ("application/grpc-web+json", None),
        ("application/grpc", None),
        ("application/json", None),
    ],
)
def test_content_types_name_their_wire_format(content_type: str, wire: WireFormat | None) -> None:
    assert wire_format(content_type) is wire


def test_binary_body_yields_its_message() -> None:
    assert read(encode_frame(b"\x0a\x02hi")) == b"\x0a\x02hi"


def test_text_body_yields_its_message_even_in_padded_chunks() -> None:
    frame = encode_frame(b"hello")
    body = base64.b64encode(frame[:2]) + base64.b64encode(frame[2:])
    assert read(body, WireFormat.TEXT, chunk=5) == b"hello"


def test_empty_message_is_a_message() -> None:
    assert read(encode_frame(b"")) == b""


def test_empty_body_holds_no_message() -> None:
    assert refusal(b"").reason is Reason.NO_MESSAGE


def test_truncated_frame_is_refused() -> None:
    assert refusal(encode_frame(b"hello")[:-1]).reason is Reason.TRUNCATED_FRAME


def test_unknown_flag_is_refused() -> None:
    assert refusal(b"\x04" + encode_frame(b"x")[1:]).reason is Reason.UNKNOWN_FLAG


def test_compressed_message_is_refused_when_no_encoding_was_negotiated() -> None:
    assert refusal(encode_frame(b"x", 0x01)).reason is Reason.COMPRESSED_FRAME


def test_trailer_frame_in_a_request_is_refused() -> None:
    assert refusal(encode_frame(b"grpc-status: 0\r\n", 0x80)).reason is Reason.TRAILER_FRAME


def test_second_message_is_refused() -> None:
    assert refusal(encode_frame(b"a") + encode_frame(b"b")).reason is Reason.EXTRA_MESSAGE


@pytest.mark.parametrize("garbage", [b"\x00", b"\x00\x00\x00\x00", b"trailing garbage"])
def test_bytes_after_the_message_are_refused(garbage: bytes) -> None:
    err = refusal(encode_frame(b"a") + garbage)
    assert err.reason is Reason.EXTRA_MESSAGE
    assert "exactly one" in err.detail


def test_oversize_message_is_refused() -> None:
    assert refusal(encode_frame(b"x" * (LIMIT + 1))).reason is Reason.MESSAGE_TOO_LARGE


def test_not_base64_is_refused_in_text_format() -> None:
    assert refusal(b"\x00\x00\x00\x00\x01x", WireFormat.TEXT).reason is Reason.BAD_BASE64
