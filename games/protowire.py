"""Protobuf's wire format, written by hand for the messages every step sends.

A view is sent after every step to every recipient. Built as protobuf messages, it costs
a Python call per field and a copy per nested message (protobuf copies a message it is
given); written here, its parts are bytes looked up or joined. The encodings are the
protobuf encodings of the same messages (the games' codec tests decode them with the
generated classes and compare), so every client reads them as before.

Fields are written as proto3 writes them: a scalar field that holds its default (0,
False, empty) is left out; a set message field is written even when empty; repeated
scalars are packed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

_LENGTH_DELIMITED = 2
_NEGATIVE = 1 << 64  # int32 and int64 write a negative value as its 64-bit two's complement


def varint(value: int) -> bytes:
    """Return ``value`` (0 or more) as a base-128 varint."""
    if value < 0x80:
        return _ONE_BYTE[value]
    if value < 0x4000:
        return bytes((value & 0x7F | 0x80, value >> 7))
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_ONE_BYTE = tuple(bytes((value,)) for value in range(0x80))
_MINUS_ONE = varint(-1 + _NEGATIVE)  # no seat, no winner yet: in nearly every view


def int_field(number: int, value: int) -> bytes:
    """Return an int32, int64, uint64, enum or bool field (nothing for 0 or False)."""
    if not value:
        return b""
    if value > 0:
        return varint(number << 3) + varint(value)
    return varint(number << 3) + (_MINUS_ONE if value == -1 else varint(value + _NEGATIVE))


def message_field(number: int, payload: bytes) -> bytes:
    """Return ``payload`` (an encoded message, string or bytes) as field ``number``.

    Protobuf merges a message's fields in whatever order and pieces they come, so parts
    encoded once can be joined into each recipient's message without re-encoding.
    """
    return varint(number << 3 | _LENGTH_DELIMITED) + varint(len(payload)) + payload


def string_field(number: int, text: str) -> bytes:
    """Return a string field (nothing for the empty string)."""
    return message_field(number, text.encode()) if text else b""


def packed_field(number: int, values: Iterable[int]) -> bytes:
    """Return a packed repeated int32 field (nothing when there are no values)."""
    body = b"".join(varint(value if value >= 0 else value + _NEGATIVE) for value in values)
    return message_field(number, body) if body else b""


def field_numbers(message: Any) -> dict[str, int]:
    """Return the field numbers of a generated protobuf message class, by field name."""
    return {field.name: field.number for field in message.DESCRIPTOR.fields}
