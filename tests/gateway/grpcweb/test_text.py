"""The grpc-web-text base64 layer: padded runs, arbitrary chunking, bad input."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.gateway.grpcweb.text import Base64ChunkDecoder, encode_chunk
from wire.grpcweb.errors import MalformedRequest, Reason


def decode_all(pieces: list[bytes]) -> bytes:
    decoder = Base64ChunkDecoder()
    out = b"".join(decoder.feed(piece) for piece in pieces)
    return out + decoder.finish()


def test_one_padded_body_decodes() -> None:
    assert decode_all([b"AAAAAAJoaQ=="]) == b"\x00\x00\x00\x00\x02hi"


def test_separately_padded_chunks_in_one_body_decode_in_order() -> None:
    body = base64.b64encode(b"\x00\x00\x00\x00") + base64.b64encode(b"\x02hi")
    assert body == b"AAAAAA==Amhp"
    assert decode_all([body]) == b"\x00\x00\x00\x00\x02hi"


def test_a_run_split_inside_a_quantum_still_decodes() -> None:
    assert decode_all([b"AA", b"AAA", b"A==Am", b"hp"]) == b"\x00\x00\x00\x00\x02hi"


def test_missing_final_padding_is_accepted() -> None:
    assert decode_all([b"aGk"]) == b"hi"


@pytest.mark.parametrize(
    "body", [b"AAAA!AAA", b"AA=A", b"A===", b"AAAAA", b"AAAA AAA", b"AAAA\nAAA"]
)
def test_bad_base64_is_refused(body: bytes) -> None:
    with pytest.raises(MalformedRequest) as err:
        decode_all([body])
    assert err.value.reason is Reason.BAD_BASE64


def test_response_chunks_are_padded_base64() -> None:
    assert encode_chunk(b"\x80\x00\x00\x00\x01") == b"gAAAAAE="


@given(st.lists(st.binary(max_size=40), max_size=6), st.data())
def test_any_padded_chunks_split_anywhere_round_trip(
    writes: list[bytes], data: st.DataObject
) -> None:
    body = b"".join(encode_chunk(write) for write in writes)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(body)), max_size=6)))
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    assert decode_all(pieces) == b"".join(writes)
