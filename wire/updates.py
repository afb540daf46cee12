"""The first bytes of every update the arbitration publishes: read without decoding the rest.

A published ``MatchUpdate`` begins with its number (field 2), its status (field 12) and,
when it carries one, its race notice (field 15), in that order (protobuf writes a
message's fields by number, and leaves out a zero); the rest follows. Protobuf reads
fields in any order, so this is still an ordinary ``MatchUpdate`` for a browser; the
gateway reads only the lead to decide whether an update is news for a stream, and passes
the bytes on as they came.
"""

from __future__ import annotations

import msgspec

from photofinish.arbitration.v1 import arbitration_pb2

_FIELDS = arbitration_pb2.MatchUpdate.DESCRIPTOR.fields_by_name
_SEQ_TAG = _FIELDS["seq"].number << 3  # varint
_STATUS_TAG = _FIELDS["status"].number << 3  # varint
_RACE_TAG = _FIELDS["race"].number << 3 | 2  # length-delimited


class Lead(msgspec.Struct, frozen=True):
    """What an update's lead says: its number, its status, whether it notes a race."""

    seq: int
    status: int
    race: bool


def lead(
    seq: int, status: arbitration_pb2.Status.ValueType, race: arbitration_pb2.Race | None = None
) -> bytes:
    """Return an update's first bytes: ``seq``, ``status`` and the race, if any."""
    return arbitration_pb2.MatchUpdate(seq=seq, status=status, race=race).SerializeToString()


def read_lead(data: bytes) -> Lead | None:
    """Return the lead of a published update, None when ``data`` does not begin with one
    (a status, never 0 in a published update, must be there)."""
    seq, position = _field(data, 0, _SEQ_TAG)
    status, position = _field(data, position, _STATUS_TAG)
    if status is None:
        return None
    return Lead(seq or 0, status, position < len(data) and data[position] == _RACE_TAG)


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
