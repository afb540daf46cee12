"""State snapshots: the exact bytes the arbitration stores, and back."""

from __future__ import annotations

from games import serial
from games.bid.model import State


def encode_state(state: State) -> bytes:
    """Return the MessagePack encoding of ``state``."""
    return serial.encode(state)


def decode_state(data: bytes) -> State:
    """Return the state ``data`` encodes; ``decode_state(encode_state(s)) == s``.

    Raises:
        msgspec.ValidationError / msgspec.DecodeError: when ``data`` is not a state.
    """
    return serial.decode(data, State)
