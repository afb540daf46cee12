"""The base64 layer of application/grpc-web-text: chunked decoding in, padded chunks out.

A text body is base64 of the framed bytes, but a client may encode each write on its own,
so one body can hold several padded runs ("AAAA" "AQ==" "AAAB"). Decoding 4-character
quanta, and ending a run at each quantum that carries "=", reads both shapes.
"""

from __future__ import annotations

import base64
import binascii

from wire.grpcweb.errors import MalformedRequest, Reason

_QUANTUM = 4


class Base64ChunkDecoder:
    """Decodes a base64 stream fed in pieces of any size, padded runs allowed anywhere."""

    def __init__(self) -> None:
        self._pending = b""

    def feed(self, data: bytes) -> bytes:
        """Returns the bytes decoded from every complete 4-character quantum so far.

        Raises:
            MalformedRequest: a character outside the base64 alphabet, or misplaced "=".
        """
        text = self._pending + data
        usable = len(text) - len(text) % _QUANTUM
        self._pending = text[usable:]
        return _decode_runs(text[:usable])

    def finish(self) -> bytes:
        """Returns the last bytes, reading a final run whose padding was left off.

        Raises:
            MalformedRequest: the body ends one character into a quantum.
        """
        tail, self._pending = self._pending, b""
        if len(tail) == 1:
            raise MalformedRequest(
                Reason.BAD_BASE64, "base64 body ends one character into a quantum"
            )
        if not tail:
            return b""
        return _decode_runs(tail + b"=" * (_QUANTUM - len(tail)))


def _decode_runs(text: bytes) -> bytes:
    out: list[bytes] = []
    start = 0
    while start < len(text):
        pad = text.find(b"=", start)
        # A run ends with the quantum holding its first "=".
        end = len(text) if pad < 0 else pad - (pad - start) % _QUANTUM + _QUANTUM
        out.append(_decode(text[start:end]))
        start = end
    return b"".join(out)


def _decode(run: bytes) -> bytes:
    try:
        return base64.b64decode(run, validate=True)
    except binascii.Error as err:
        raise MalformedRequest(
            Reason.BAD_BASE64, f"body is not base64 near {run[:16]!r}: {err}"
        ) from err


def encode_chunk(data: bytes) -> bytes:
    """Returns one padded base64 chunk of a grpc-web-text response."""
    return base64.b64encode(data)
