"""The server's timers on a real event loop: one flag, for the deadline that stands.

A clocked game's deadline moves with every step; the timer armed for an earlier one is
kept and re-armed when it fires, so what reaches the match's queue must still be exactly
what its state calls for when it is due: never a flag for a deadline that moved on.
"""

from __future__ import annotations

import asyncio
import time

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.clock import Clock
from services.arbitration.decision_facts import Decision, Lift, Seat
from services.arbitration.match import Flag, Match, Nudge
from services.arbitration.timers import Timers
from services.arbitration.timing import Timing

MS = 1_000_000
WAIT_S = 5.0  # how long a test waits for an item it expects (not a measurement)


def _running(deadline_in_ms: int) -> Timing:
    """Return a clocked timing whose running deadline is ``deadline_in_ms`` from now."""
    now_ns = time.monotonic_ns()
    clock = Clock((deadline_in_ms * MS, 0), Seat(0), now_ns, 0)
    return Timing(clock, clocked=True)


def _match(timing: Timing, decision: Decision | None = None) -> Match:
    return Match(
        created=events_pb2.MatchCreated(match_id="timers-1"),
        opened_ns=0,
        version=7,
        decision=decision or Decision(frozenset({Seat(0)}), fresh=True),
        decision_proto=game_pb2.Decision(),
        timing=timing,
    )


def _timers() -> Timers:
    return Timers(gate_timeout_s=30.0, now=time.monotonic_ns)


async def _next(match: Match) -> object:
    return await asyncio.wait_for(match.queue.get(), WAIT_S)


async def test_a_deadline_moved_later_flags_once_for_the_later_deadline() -> None:
    timers = _timers()
    match = _match(_running(20))
    timers.schedule(match)
    match.timing = _running(120)  # the next step: the deadline moved on
    later = match.timing.deadline_ns()
    assert later is not None
    timers.schedule(match)
    assert await _next(match) == Flag(later)  # the first item: no flag for the earlier one
    await asyncio.sleep(0.05)
    assert match.queue.empty()


async def test_a_deadline_moved_earlier_flags_for_the_earlier_deadline() -> None:
    timers = _timers()
    match = _match(_running(60_000))
    timers.schedule(match)
    match.timing = _running(20)
    earlier = match.timing.deadline_ns()
    assert earlier is not None
    timers.schedule(match)
    assert await _next(match) == Flag(earlier)


async def test_a_match_over_or_without_a_clock_gets_no_timer() -> None:
    timers = _timers()
    match = _match(_running(20))
    timers.schedule(match)
    match.status = arbitration_pb2.STATUS_FINISHED
    timers.schedule(match)
    assert match.timer is None
    unclocked = _match(Timing(Clock(), clocked=False))
    timers.schedule(unclocked)
    assert unclocked.timer is None
    await asyncio.sleep(0.1)
    assert match.queue.empty() and unclocked.queue.empty()


async def test_a_nudge_set_again_is_due_from_the_last_setting() -> None:
    # The second setting comes 5 ms later by the arbitration's clock, however late the
    # loop runs the first timer (a slow machine's sleep of 5 ms can outlast the 20).
    now_ns = [time.monotonic_ns()]
    timers = Timers(gate_timeout_s=30.0, now=lambda: now_ns[0])
    pause = Decision(frozenset(), fresh=True, gated=True, lift=Lift.AFTER_PAUSE, lift_after_ms=20)
    match = _match(Timing(Clock(), clocked=False), pause)
    timers.schedule(match)
    now_ns[0] += 5 * MS
    timers.schedule(match)  # the same decision set again (an away change, say)
    wanted = match.wanted_timer
    assert wanted is not None
    item = await _next(match)
    assert isinstance(item, Nudge) and item == Nudge(7, wanted[0])
    # Not queued when the first setting was due: a timer may fire a millisecond early.
    assert time.monotonic_ns() >= item.due_ns - MS
