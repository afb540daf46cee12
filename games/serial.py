"""States to bytes and back, exactly (the arbitration snapshots them)."""

from __future__ import annotations

from typing import TypeVar

import msgspec

T = TypeVar("T")

_encoder = msgspec.msgpack.Encoder()


def encode(value: object) -> bytes:
    """Return the MessagePack encoding of a tree of frozen structs."""
    return _encoder.encode(value)


def decode(data: bytes, kind: type[T]) -> T:
    """Return the value of type ``kind`` that ``data`` encodes.

    Raises:
        msgspec.ValidationError / msgspec.DecodeError: when ``data`` is not such a value.
    """
    return msgspec.msgpack.decode(data, type=kind)
