"""The first bytes of every update the arbitration publishes: read without decoding the rest.

A published ``MatchUpdate`` begins with its number (field 2), its status (field 12) and,
when it carries one, its race notice (field 15), in that order; the rest follows. Protobuf
reads fields in any order, so this is still an ordinary ``MatchUpdate`` for a browser;
the gateway reads only the lead to decide whether an update is news for a stream, and
passes the bytes on as they came.
"""

from __future__ import annotations

from dataclasses import dataclass

from photofinish.arbitration.v1 import arbitration_pb2

_FIELDS = arbitration_pb2.MatchUpdate.DESCRIPTOR.fields_by_name
_SEQ_TAG = _FIELDS["seq"].number << 3  # varint
_STATUS_TAG = _FIELDS["status"].number << 3  # varint
_RACE_TAG = _FIELDS["race"].number << 3 | 2  # length-delimited


@dataclass(frozen=True, slots=True)
class Lead:
    """What an update's lead says: its number, its status, whether it notes a race."""

    seq: int
    status: int
    race: bool


def varint(value: int) -> bytes:
    """Return ``value`` (0 or more) as a protobuf varint."""
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def lead(seq: int, status: int, race: bytes | None = None) -> bytes:
    """Return an update's first bytes: ``seq``, ``status`` and the encoded race, if any."""
    head = bytes((_SEQ_TAG,)) + varint(seq) + bytes((_STATUS_TAG,)) + varint(status)
    if race is not None:
        head += bytes((_RACE_TAG,)) + varint(len(race)) + race
    return head


def read_lead(data: bytes) -> Lead | None:
    """Return the lead of a published update, None when ``data`` does not begin with one."""
    seq, position = _field(data, 0, _SEQ_TAG)
    if seq is None:
        return None
    status, position = _field(data, position, _STATUS_TAG)
    if status is None:
        return None
    return Lead(seq, status, position < len(data) and data[position] == _RACE_TAG)


def _field(data: bytes, position: int, tag: int) -> tuple[int | None, int]:
    """Return the varint after ``tag`` at ``position`` and where it ends (None: no such)."""
    if position >= len(data) or data[position] != tag:
        return None, position
    value, shift, position = 0, 0, position + 1
    while position < len(data):
        byte = data[position]
        value |= (byte & 0x7F) << shift
        position += 1
        if byte < 0x80:
            return value, position
        shift += 7
    return None, position
