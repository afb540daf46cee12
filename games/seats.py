"""Seats: the two places at a table, numbered 0 and 1."""

from __future__ import annotations

from typing import NewType

from games.errors import Malformed, Reason

Seat = NewType("Seat", int)

SEATS: tuple[Seat, Seat] = (Seat(0), Seat(1))


def other(seat: Seat) -> Seat:
    """Return the opponent's seat."""
    return Seat(1 - seat)


def parse_seat(value: int) -> Seat:
    """Return ``value`` as a seat.

    Raises:
        Malformed: when ``value`` is not 0 or 1.
    """
    if value not in (0, 1):
        raise Malformed(Reason.NO_SUCH_SEAT, f"seat {value!r} is not 0 or 1")
    return Seat(value)
