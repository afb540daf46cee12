"""Frames and trailer blocks: known bytes, round trips, percent-encoding, malformed input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wire.grpcweb.errors import MalformedRequest, Reason
from wire.grpcweb.framing import (
    TRAILER_FLAG,
    Frame,
    FrameDecoder,
    decode_frames,
    encode_frame,
    encode_trailer_frame,
    parse_trailer_block,
    percent_decode,
    percent_encode,
    status_headers,
    trailer_block,
)
from wire.grpcweb.status import Code, Status


def test_data_frame_is_flag_then_big_endian_length_then_payload() -> None:
    assert encode_frame(b"\x08\x01") == b"\x00\x00\x00\x00\x02\x08\x01"


def test_empty_message_is_a_bare_five_byte_header() -> None:
    assert encode_frame(b"") == b"\x00\x00\x00\x00\x00"
    assert decode_frames(b"\x00\x00\x00\x00\x00") == [Frame(0, b"")]


def test_trailer_frame_carries_status_then_message_then_metadata() -> None:
    status = Status(Code.NOT_FOUND, "no such match", (("x-pf-reason", "no_match"),))
    block = b"grpc-status: 5\r\ngrpc-message: no such match\r\nx-pf-reason: no_match\r\n"
    assert encode_trailer_frame(status) == bytes([TRAILER_FLAG]) + len(block).to_bytes(4) + block


def test_ok_trailers_leave_out_an_empty_message() -> None:
    assert trailer_block(Status(Code.OK)) == b"grpc-status: 0\r\n"


def test_binary_metadata_is_base64_without_padding() -> None:
    status = Status(Code.ABORTED, "", (("grpc-status-details-bin", b"\x08\x0a"),))
    assert trailer_block(status) == b"grpc-status: 10\r\ngrpc-status-details-bin: CAo\r\n"


def test_metadata_that_would_break_the_header_block_is_left_out() -> None:
    status = Status(Code.OK, "", (("x-pf-evil", "a\r\ninjected: 1"), ("Bad Name", "v")))
    assert trailer_block(status) == b"grpc-status: 0\r\n"


def test_status_headers_match_the_trailer_block() -> None:
    status = Status(Code.INTERNAL, "50% done", (("x-pf-a", "1"),))
    assert status_headers(status) == parse_trailer_block(trailer_block(status))


def test_grpc_message_percent_encodes_percent_and_non_ascii_only() -> None:
    assert percent_encode("tile [3|5] — 100% sure") == "tile [3|5] %E2%80%94 100%25 sure"
    assert percent_encode("line\nbreak") == "line%0Abreak"


def test_percent_decoding_keeps_a_stray_percent() -> None:
    assert percent_decode("100%25 %E2%80%94 50%") == "100% — 50%"
    assert percent_decode("%zz%4") == "%zz%4"


@given(st.text())
def test_percent_encoding_round_trips_and_stays_printable_ascii(message: str) -> None:
    encoded = percent_encode(message)
    assert all(0x20 <= ord(c) <= 0x7E for c in encoded)
    assert percent_decode(encoded) == message


def test_parse_trailer_block_lowercases_names_and_trims_values() -> None:
    assert parse_trailer_block(b"Grpc-Status:0\r\ngrpc-message:  hi \r\n") == [
        ("grpc-status", "0"),
        ("grpc-message", "hi"),
    ]
    with pytest.raises(ValueError):
        parse_trailer_block(b"no colon here\r\n")


frames = st.lists(
    st.builds(Frame, st.sampled_from([0x00, 0x01, 0x80]), st.binary(max_size=300)), max_size=6
)


@given(frames, st.data())
def test_frames_round_trip_however_the_bytes_are_split(
    expected: list[Frame], data: st.DataObject
) -> None:
    wire = b"".join(encode_frame(f.payload, f.flag) for f in expected)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=8)))
    decoder = FrameDecoder(max_payload_bytes=300)
    decoded: list[Frame] = []
    for start, end in zip([0, *cuts], [*cuts, len(wire)], strict=True):
        decoded += decoder.feed(wire[start:end])
    decoder.finish()
    assert decoded == expected


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"\x00\x00\x00", Reason.TRUNCATED_FRAME),
        (b"\x00\x00\x00\x00\x05abc", Reason.TRUNCATED_FRAME),
        (b"\x02\x00\x00\x00\x00", Reason.UNKNOWN_FLAG),
        (b"\x40\x00\x00\x00\x01x", Reason.UNKNOWN_FLAG),
        (b"\x00\x00\x00\x04\x01" + b"x" * 1025, Reason.MESSAGE_TOO_LARGE),
    ],
)
def test_malformed_bodies_are_refused_with_their_reason(body: bytes, reason: Reason) -> None:
    with pytest.raises(MalformedRequest) as err:
        decode_frames(body, max_payload_bytes=1024)
    assert err.value.reason is reason


def test_oversize_frame_is_refused_from_its_header_alone() -> None:
    decoder = FrameDecoder(max_payload_bytes=16)
    with pytest.raises(MalformedRequest) as err:
        decoder.feed(b"\x00\xff\xff\xff\xff")
    assert err.value.reason is Reason.MESSAGE_TOO_LARGE
    assert "4294967295 bytes" in str(err.value)


def test_a_message_exactly_at_the_limit_is_accepted() -> None:
    assert decode_frames(encode_frame(b"x" * 16), max_payload_bytes=16) == [Frame(0, b"x" * 16)]
