"""How a match's clock follows the engine's decisions, hot-seat hand-overs included. Pure.

The engine says who decides next and whether that is a genuinely new decision; this
module turns that into clock moves (rules page §5), and adds the one thing the engine
cannot know: on a shared device, play stops while the device changes hands, until the
next player reveals their hand.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from services.arbitration.clock import Clock, advance, charge, start
from services.arbitration.decision_facts import Decision, Seat


class Timing(msgspec.Struct, frozen=True):
    """A match's clock and hand-over state.

    ``clocked`` is false for games without a match clock (Spit). ``shown`` is the seat
    whose hand a hot-seat device shows now; ``handover`` the seat that must reveal.
    """

    clock: Clock = msgspec.field(default_factory=Clock)
    clocked: bool = True
    hot_seat: bool = False
    shown: Seat | None = None
    handover: Seat | None = None

    def is_in_time(self, arrival_ns: int) -> bool:
        """Return whether a command stamped ``arrival_ns`` beats the running deadline."""
        return not self.clocked or self.clock.is_in_time(arrival_ns)

    def deadline_ns(self) -> int | None:
        """Return when the running player's time runs out (None: no clock runs)."""
        return self.clock.deadline_ns() if self.clocked else None


def after_step(timing: Timing, decision: Decision, now_ns: int) -> Timing:
    """Return the timing after a step whose next decision is ``decision``, at ``now_ns``."""
    if not timing.clocked:
        return timing
    if decision.gated or len(decision.seats) != 1:
        # Gates (and the end) stop both clocks; a shared device shows no hand there.
        return replace(timing, clock=charge(timing.clock, now_ns), shown=None, handover=None)
    (seat,) = decision.seats
    if timing.hot_seat and seat != timing.shown:
        return replace(timing, clock=charge(timing.clock, now_ns), handover=seat)
    return replace(timing, clock=advance(timing.clock, seat, decision.fresh, now_ns))


def after_reveal(timing: Timing, seat: Seat, now_ns: int) -> Timing:
    """Return the timing once ``seat`` has revealed their hand: their fresh decision starts."""
    return replace(timing, clock=start(timing.clock, seat, now_ns), shown=seat, handover=None)


def remaining_ms(timing: Timing, now_ns: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Return ((grace ms, bank ms) of seat 0, the same of seat 1) at ``now_ns``."""
    seats = [timing.clock.remaining_ns(Seat(s), now_ns) for s in (0, 1)]
    return (
        (seats[0][0] // 1_000_000, seats[0][1] // 1_000_000),
        (seats[1][0] // 1_000_000, seats[1][1] // 1_000_000),
    )
