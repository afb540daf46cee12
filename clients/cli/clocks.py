"""Match clocks for display: the server's figures, and a local count-down between updates."""

from __future__ import annotations

from dataclasses import dataclass

from photofinish.arbitration.v1 import arbitration_pb2


@dataclass(frozen=True, slots=True)
class SeatTime:
    """One seat's remaining time: the fresh grace first, then the match bank."""

    grace_ms: int
    bank_ms: int


def seat_times(clock: arbitration_pb2.ClockView) -> tuple[SeatTime, ...]:
    """Return each seat's time as the server measured it when the update was made."""
    return tuple(SeatTime(seat.grace_ms, seat.bank_ms) for seat in clock.seats)


def count_down(clock: arbitration_pb2.ClockView, elapsed_ms: int) -> tuple[SeatTime, ...]:
    """Return the seats' times ``elapsed_ms`` after the update, if nothing else happened.

    Only the running seat's time moves: its grace is used up first, then its bank.
    Never below zero; the server, not this estimate, decides when time is up.
    """
    times = list(seat_times(clock))
    running = clock.running
    if clock.enabled and 0 <= running < len(times) and elapsed_ms > 0:
        now = times[running]
        over = max(0, elapsed_ms - now.grace_ms)
        times[running] = SeatTime(max(0, now.grace_ms - elapsed_ms), max(0, now.bank_ms - over))
    return tuple(times)


def format_ms(ms: int) -> str:
    """Return ``ms`` as m:ss, rounding down (a display must never promise time)."""
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"
