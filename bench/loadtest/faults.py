"""The fault mode: kill or stall one service of our own stack in the middle of the run."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from dataclasses import dataclass

from bench.loadtest.settings import RESTART_AFTER_S, STALL_S
from services.stack.stack import Stack


@dataclass(frozen=True, slots=True)
class Injected:
    """What was done, to whom, and when (seconds since the run started)."""

    fault: str
    service: str
    at_s: float
    for_s: float

    def describe(self) -> str:
        verb = "stopped (SIGSTOP)" if self.fault.startswith("stall") else "killed (SIGKILL)"
        back = "resumed" if self.fault.startswith("stall") else "restarted"
        return f"{self.service} {verb} at {self.at_s:.1f} s, {back} {self.for_s:.1f} s later"


async def inject(stack: Stack, fault: str, pids: dict[str, int], started: float) -> Injected:
    """Kill (then restart) or stall (then resume) the service ``fault`` names.

    ``pids`` is updated with a restarted process's new pid.
    """
    action, service = fault.split("-", 1)
    at = time.perf_counter() - started
    child = stack.children[service]
    if action == "stall":
        pid = child.process.pid
        os.kill(pid, signal.SIGSTOP)
        await asyncio.sleep(STALL_S)
        os.kill(pid, signal.SIGCONT)
        return Injected(fault, service, at, STALL_S)
    await stack.stop(service, signal.SIGKILL)
    await asyncio.sleep(RESTART_AFTER_S)
    restarted = await stack.start_again(service)
    pids[service] = restarted.process.pid
    return Injected(fault, service, at, time.perf_counter() - started - at)
