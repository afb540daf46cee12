"""Watching the process itself: event-loop stalls and NATS outages become timing faults."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable

from services.arbitration.faults import Fault, FaultKind, Tolerances, measured
from services.common.metrics import LAG_SAMPLE_INTERVAL_S, observe_lag
from services.common.ticker import Ticker

STALL_SAMPLE_INTERVAL_S = 0.01  # fine enough to catch a 100 ms stall within 10 ms of it
# Every tick is judged for a stall; one in this many is also the loop's lag sample (the
# lag metric's pace in every other service, 10 a second).
LAG_SAMPLE_EVERY = round(LAG_SAMPLE_INTERVAL_S / STALL_SAMPLE_INTERVAL_S)


def stall_watcher(
    tolerances: Tolerances, on_fault: Callable[[Fault], None], watching: Callable[[], bool]
) -> Ticker:
    """Return a ticker that reports a fault whenever the loop ran it too late (not started).

    A stopped or starved process (SIGSTOP, swapping, a long GC, CPU-bound work on the
    loop) wakes late; everything stamped in that time was stamped late. It ticks every
    10 ms while ``watching()`` (the instance holds matches) and at the lag sampler's pace
    otherwise: a stall while no match is held touches nobody's time. The ticks are also
    the process's event-loop lag samples, ten a second.
    """
    ticks = itertools.count()

    def interval_s() -> float:
        return STALL_SAMPLE_INTERVAL_S if watching() else LAG_SAMPLE_INTERVAL_S

    def on_tick(due_ns: int, ran_ns: int) -> None:
        if next(ticks) % LAG_SAMPLE_EVERY == 0 or not watching():
            observe_lag(due_ns, ran_ns)
        fault = measured(FaultKind.EVENT_LOOP_LAG, due_ns, ran_ns, tolerances)
        if fault is not None:
            on_fault(fault)

    return Ticker(interval_s, on_tick)


class NatsOutages:
    """The NATS connections' disconnects and reconnects, turned into one fault per outage.

    The process has two connections to the same server (nats-py's, and the hot path's
    link): the outage runs from the first that drops to the first that is back.
    """

    def __init__(
        self,
        tolerances: Tolerances,
        on_fault: Callable[[Fault], None],
        now: Callable[[], int],
    ) -> None:
        self._tolerances = tolerances
        self._on_fault = on_fault
        self._now = now
        self._down_since_ns: int | None = None

    def callbacks(self) -> dict[str, Callable[[], Awaitable[None]]]:
        """Return the keyword arguments for ``nats.connect``."""

        async def disconnected() -> None:
            self.disconnected()

        async def reconnected() -> None:
            self.reconnected()

        return {"disconnected_cb": disconnected, "reconnected_cb": reconnected}

    def disconnected(self) -> None:
        if self._down_since_ns is None:
            self._down_since_ns = self._now()

    def reconnected(self) -> None:
        if self._down_since_ns is None:
            return
        fault = measured(
            FaultKind.NATS_DISCONNECTED, self._down_since_ns, self._now(), self._tolerances
        )
        self._down_since_ns = None
        if fault is not None:
            self._on_fault(fault)
