"""Watching the process itself: event-loop stalls and NATS outages become timing faults."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from services.arbitration.faults import Fault, FaultKind, Tolerances, measured

STALL_SAMPLE_INTERVAL_S = 0.01  # fine enough to catch a 100 ms stall within 10 ms of it


async def watch_for_stalls(tolerances: Tolerances, on_fault: Callable[[Fault], None]) -> None:
    """Forever: sleep briefly and report a fault whenever the loop woke us too late.

    A stopped or starved process (SIGSTOP, swapping, a long GC, CPU-bound work on the
    loop) wakes late; everything stamped in that time was stamped late.
    """
    while True:
        asked_ns = time.monotonic_ns() + int(STALL_SAMPLE_INTERVAL_S * 1e9)
        await asyncio.sleep(STALL_SAMPLE_INTERVAL_S)
        fault = measured(FaultKind.EVENT_LOOP_LAG, asked_ns, time.monotonic_ns(), tolerances)
        if fault is not None:
            on_fault(fault)


class NatsOutages:
    """nats-py's disconnect/reconnect callbacks, turned into one fault per outage."""

    def __init__(self, tolerances: Tolerances, on_fault: Callable[[Fault], None]) -> None:
        self._tolerances = tolerances
        self._on_fault = on_fault
        self._down_since_ns: int | None = None

    def callbacks(self) -> dict[str, Callable[[], Awaitable[None]]]:
        """Return the keyword arguments for ``nats.connect``."""
        return {"disconnected_cb": self.disconnected, "reconnected_cb": self.reconnected}

    async def disconnected(self) -> None:
        if self._down_since_ns is None:
            self._down_since_ns = time.monotonic_ns()

    async def reconnected(self) -> None:
        if self._down_since_ns is None:
            return
        fault = measured(
            FaultKind.NATS_DISCONNECTED, self._down_since_ns, time.monotonic_ns(), self._tolerances
        )
        self._down_since_ns = None
        if fault is not None:
            self._on_fault(fault)
