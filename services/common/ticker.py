"""A timer that calls back every interval and says how late each call came.

A bare timer callback, not a task that sleeps: each tick costs one wake of the event loop
and no future, so a watcher that ticks a hundred times a second stays cheap.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

# Called with the instant the tick was due and the instant it ran (monotonic ns).
OnTick = Callable[[int, int], None]


class Ticker:
    """Calls ``on_tick(due_ns, ran_ns)`` every ``interval_s()`` seconds until stopped.

    The interval is asked again before every tick, so a watcher can slow down while
    there is nothing to watch.
    """

    def __init__(self, interval_s: Callable[[], float], on_tick: OnTick) -> None:
        self._interval_s = interval_s
        self._on_tick = on_tick
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._due_ns = 0

    def start(self) -> None:
        """Start ticking on the running loop."""
        self._loop = asyncio.get_running_loop()
        self._arm()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _arm(self) -> None:
        assert self._loop is not None
        interval_s = self._interval_s()
        self._due_ns = time.monotonic_ns() + int(interval_s * 1e9)
        # loop.time() is the monotonic clock (asyncio's and uvloop's alike).
        self._handle = self._loop.call_at(self._due_ns / 1e9, self._tick)

    def _tick(self) -> None:
        ran_ns = time.monotonic_ns()
        try:
            self._on_tick(self._due_ns, ran_ns)
        finally:
            self._arm()
