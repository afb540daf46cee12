"""gRPC-web frames: 5-byte length-prefixed messages and the trailer frame that ends a body.

A frame is one flag byte, a 4-byte big-endian length and that many payload bytes. Flag
0x00 carries a message, bit 0x01 marks it compressed, bit 0x80 marks the trailer frame
whose payload is an HTTP/1 header block ("grpc-status: 0\\r\\n...").
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from wire.grpcweb.errors import MalformedRequest, Reason
from wire.grpcweb.metadata import header_lines
from wire.grpcweb.status import Status

DATA_FLAG = 0x00
COMPRESSED_FLAG = 0x01
TRAILER_FLAG = 0x80
HEADER_BYTES = 5
MAX_LENGTH = 0xFFFFFFFF
_KNOWN_FLAGS = frozenset({DATA_FLAG, COMPRESSED_FLAG, TRAILER_FLAG, TRAILER_FLAG | COMPRESSED_FLAG})
_HEADER = struct.Struct(">BI")
# grpc-message keeps printable ASCII except "%" as is; every other byte of its UTF-8 is %XX.
_UNRESERVED = frozenset(range(0x20, 0x7F)) - {ord("%")}
_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame of a gRPC-web body."""

    flag: int
    payload: bytes

    @property
    def is_trailer(self) -> bool:
        return bool(self.flag & TRAILER_FLAG)

    @property
    def is_compressed(self) -> bool:
        return bool(self.flag & COMPRESSED_FLAG)


def encode_frame(payload: bytes, flag: int = DATA_FLAG) -> bytes:
    """Returns the frame carrying `payload` with `flag`."""
    return _HEADER.pack(flag, len(payload)) + payload


def encode_trailer_frame(status: Status) -> bytes:
    """Returns the trailer frame that ends a body with `status` and its trailing metadata."""
    return encode_frame(trailer_block(status), TRAILER_FLAG)


def trailer_block(status: Status) -> bytes:
    """Returns `status` as an HTTP/1 header block: grpc-status, grpc-message, then metadata."""
    lines = [f"grpc-status: {int(status.code)}\r\n"]
    if status.message:
        lines.append(f"grpc-message: {percent_encode(status.message)}\r\n")
    lines.extend(f"{key}: {value}\r\n" for key, value in header_lines(status.trailers))
    return "".join(lines).encode("ascii")


def status_headers(status: Status) -> list[tuple[str, str]]:
    """Returns the same pairs as `trailer_block`, for a trailers-only HTTP response."""
    pairs = [("grpc-status", str(int(status.code)))]
    if status.message:
        pairs.append(("grpc-message", percent_encode(status.message)))
    return pairs + header_lines(status.trailers)


def parse_trailer_block(block: bytes) -> list[tuple[str, str]]:
    """Returns the (lower-case name, value) pairs of a trailer frame's payload.

    Raises:
        ValueError: a line has no colon, or the block is not ASCII.
    """
    pairs: list[tuple[str, str]] = []
    for line in block.decode("ascii").split("\r\n"):
        if not line:
            continue
        name, colon, value = line.partition(":")
        if not colon:
            raise ValueError(f"trailer line {line!r} has no colon")
        pairs.append((name.strip().lower(), value.strip()))
    return pairs


def percent_encode(message: str) -> str:
    """Returns `message` percent-encoded as the gRPC spec asks for grpc-message."""
    return "".join(
        chr(byte) if byte in _UNRESERVED else f"%{byte:02X}"
        for byte in message.encode("utf-8", "replace")
    )


def percent_decode(text: str) -> str:
    """Returns a grpc-message decoded; a "%" not followed by two hex digits stays as is."""
    raw = text.encode("utf-8")
    out = bytearray()
    i = 0
    while i < len(raw):
        pair = raw[i + 1 : i + 3]
        if raw[i] == ord("%") and len(pair) == 2 and set(pair) <= _HEX_DIGITS:
            out.append(int(pair, 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    return out.decode("utf-8", "replace")


class FrameDecoder:
    """Splits a byte stream, fed in pieces of any size, into frames.

    Each header is checked the moment its 5 bytes are in, so an oversize or unknown frame
    is refused before its payload is buffered.
    """

    def __init__(self, max_payload_bytes: int) -> None:
        self._max_payload_bytes = max_payload_bytes
        self._buffer = bytearray()
        self._header: tuple[int, int] | None = None

    def feed(self, data: bytes) -> list[Frame]:
        """Returns the frames completed by `data`, in order.

        Raises:
            MalformedRequest: an unknown flag or a payload over the limit.
        """
        self._buffer += data
        frames: list[Frame] = []
        while True:
            if self._header is None:
                if len(self._buffer) < HEADER_BYTES:
                    return frames
                self._header = self._read_header()
            flag, length = self._header
            if len(self._buffer) < length:
                return frames
            frames.append(Frame(flag, bytes(self._buffer[:length])))
            del self._buffer[:length]
            self._header = None

    @property
    def pending_bytes(self) -> int:
        """Returns how many bytes of an unfinished frame are held, its header included."""
        return len(self._buffer) + (HEADER_BYTES if self._header is not None else 0)

    def finish(self) -> None:
        """Checks the stream ended on a frame boundary.

        Raises:
            MalformedRequest: the stream stopped inside a frame.
        """
        if self._header is not None:
            _, length = self._header
            raise MalformedRequest(
                Reason.TRUNCATED_FRAME,
                f"frame declares {length} bytes but only {len(self._buffer)} arrived",
            )
        if self._buffer:
            raise MalformedRequest(
                Reason.TRUNCATED_FRAME,
                f"body ends with {len(self._buffer)} bytes of an incomplete 5-byte frame header",
            )

    def _read_header(self) -> tuple[int, int]:
        flag, length = _HEADER.unpack_from(self._buffer)
        if flag not in _KNOWN_FLAGS:
            raise MalformedRequest(Reason.UNKNOWN_FLAG, f"frame flag 0x{flag:02x} is not defined")
        if length > self._max_payload_bytes:
            raise MalformedRequest(
                Reason.MESSAGE_TOO_LARGE,
                f"message of {length} bytes is over the limit of {self._max_payload_bytes}",
            )
        del self._buffer[:HEADER_BYTES]
        return flag, length


def decode_frames(data: bytes, max_payload_bytes: int = MAX_LENGTH) -> list[Frame]:
    """Returns every frame of a complete body.

    Raises:
        MalformedRequest: unknown flag, payload over the limit, or a truncated frame.
    """
    decoder = FrameDecoder(max_payload_bytes)
    frames = decoder.feed(data)
    decoder.finish()
    return frames
