"""A Spit state to bytes and back, exactly, for the arbitration's snapshots."""

from __future__ import annotations

from games import serial
from games.spit.model import State


def encode_state(state: State) -> bytes:
    """Return the MessagePack bytes of ``state``."""
    return serial.encode(state)


def decode_state(data: bytes) -> State:
    """Return the state ``data`` encodes; equal to the state that was encoded.

    Raises:
        msgspec.ValidationError / msgspec.DecodeError: when ``data`` is not a Spit state.
    """
    return serial.decode(data, State)
