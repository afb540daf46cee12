"""A flag falls at its deadline, never before, on the event loop the services run (uvloop).

uvloop's clock and timers move in whole milliseconds, so its timer for a deadline can
fire up to a millisecond early, and a sleep of less than a millisecond is no sleep at all
there. A soak run caught a Bid match flagged 124 µs before its deadline that way.
"""

from __future__ import annotations

import asyncio
import time

import pytest
import uvloop

from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration.match import Flag
from tests.arbitration.harness import Table

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
EARLY_NS = 300_000  # the timer's wake-up, this long before the deadline


class RealTimeTable(Table):
    """A table whose clock, once ``run_from`` is called, runs with the real one."""

    offset_ns: int | None = None

    def run_from(self, reads_ns: int) -> None:
        self.offset_ns = reads_ns - time.monotonic_ns()

    def now(self) -> int:
        if self.offset_ns is None:
            return self.now_ns
        return time.monotonic_ns() + self.offset_ns


@pytest.mark.parametrize("seed", range(5))
def test_a_flag_whose_timer_wakes_early_falls_at_the_deadline(seed: int) -> None:
    uvloop.run(flagged_early(seed))


async def flagged_early(seed: int) -> None:
    assert isinstance(asyncio.get_running_loop(), uvloop.Loop)
    table = RealTimeTable(game_pb2.GAME_BID, seed)
    await table.open()
    await table.submit(0, READY)
    await table.submit(1, READY)
    deadline = table.match.timing.deadline_ns()
    assert deadline is not None
    table.run_from(deadline - EARLY_NS)  # the timer fired this much too soon
    await table.matches._worker.handle(table.match, Flag(deadline))
    (flag,) = [e for e in await table.log() if e.kind == log_pb2.ENTRY_KIND_FLAG]
    assert flag.flag.fired_us >= flag.flag.deadline_us, flag.flag
    assert flag.flag.late_us >= 0
