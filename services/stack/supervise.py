"""`make run` keeps its processes running: one that dies is started again, on its own ports.

A process that exits while the stack runs (a crash, kill -9) is started again after a
pause that doubles with each quick death (1 s, 2 s, 4 s … at most 30 s; a process that
stayed up a minute starts the count afresh), and each restart is logged and counted
(``pf_restarts_total`` on the supervisor's own /metrics, which the ops page reads). The
tests run the stack without it: they stop processes on purpose.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from prometheus_client import Counter

from services.stack.stack import Stack

log = logging.getLogger("stack")

RESTARTS = Counter("pf_restarts", "Processes the supervisor started again", ["process"])
CHECK_EVERY_S = 0.5
FIRST_PAUSE_S = 1.0
LONGEST_PAUSE_S = 30.0
STAYED_UP_S = 60.0  # a process up this long is healthy again: its next pause is the first


class Supervisor:
    """Watches every child of ``stack`` and starts again the ones that die."""

    def __init__(
        self,
        stack: Stack,
        say: Callable[[str], None] = print,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._stack = stack
        self._say = say
        self._now = now
        self._pauses: dict[str, float] = {}
        self._started_at: dict[str, float] = {name: now() for name in stack.children}

    async def run(self) -> None:
        """Supervise until cancelled."""
        while True:
            await asyncio.sleep(CHECK_EVERY_S)
            for name, child in list(self._stack.children.items()):
                code = child.process.returncode
                if code is not None:
                    await self._restart(name, code)

    async def _restart(self, name: str, code: int) -> None:
        up_s = self._now() - self._started_at.get(name, 0.0)
        pause = FIRST_PAUSE_S if up_s >= STAYED_UP_S else self._pauses.get(name, FIRST_PAUSE_S)
        self._pauses[name] = min(LONGEST_PAUSE_S, pause * 2)
        self._say(f"{name} exited ({code}); starting it again in {pause:g} s")
        self._stack.hold_ports(name)  # for the pause: no one else is given them meanwhile
        await asyncio.sleep(pause)
        try:
            await self._stack.start_again(name)
        except RuntimeError as error:  # it did not come up: the next check tries again
            self._say(f"{name} did not start again: {error}")
            return
        RESTARTS.labels(name).inc()
        self._started_at[name] = self._now()
        self._say(f"{name} is running again")
