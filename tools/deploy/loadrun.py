"""The load test against the deployment, with a NATS node and an arbitration killed mid-run.

`bench.loadtest --url` drives a tournament through the first gateway and checks every
match afterwards. Its progress lines (one a second, counting client errors so far) give
when errors happened: they must fall inside the outage the kills cause, and nowhere else.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.deploy.host import ROOT

PROGRESS = re.compile(r"^\s*(?P<t>\d+(?:\.\d+)?) s\s+players .* errors (?P<errors>\d+)\s*$")
# The checks a kill cannot be allowed to break; "no errors on the client side" is judged
# here instead, against the outage window.
CLIENT_ERRORS_CHECK = "no errors on the client side"


@dataclass(slots=True)
class Timeline:
    """The run as it went: errors so far at each second, and when the faults came."""

    errors: list[tuple[float, int]] = field(default_factory=list)
    fault_at_s: float | None = None
    lines: list[str] = field(default_factory=list)

    def errors_before_fault(self) -> int:
        """Return the client errors counted before the fault (0 if there was none)."""
        before = [n for t, n in self.errors if self.fault_at_s is None or t < self.fault_at_s]
        return max(before, default=0)

    def outage_window_s(self) -> tuple[float, float] | None:
        """Return (first, last) second whose line counted new errors; None when none did."""
        rising = [t for (t, n), (_, m) in zip(self.errors[1:], self.errors, strict=False) if n > m]
        if self.errors and self.errors[0][1] > 0:
            rising.insert(0, self.errors[0][0])
        return (rising[0], rising[-1]) if rising else None


@dataclass(frozen=True, slots=True)
class LoadRun:
    """The load test's outcome: its exit status, report, and the timeline around the fault."""

    returncode: int
    report: dict[str, Any]
    timeline: Timeline

    def failed_checks(self) -> list[str]:
        """Return the names of the report's failed checks, the client-error one aside."""
        return [
            check["name"]
            for check in self.report.get("checks", [])
            if not check["passed"] and check["name"] != CLIENT_ERRORS_CHECK
        ]


async def run(
    gateway_url: str,
    nats_url: str,
    out: Path,
    players: int,
    seconds: float,
    fault_at_s: float,
    fault: Callable[[], Coroutine[None, None, None]],
) -> LoadRun:
    """Run the load test; call ``fault`` once its own clock passes ``fault_at_s``."""
    out.mkdir(parents=True, exist_ok=True)
    before = set(out.glob("loadtest-*.json"))
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.loadtest",
        "--url",
        gateway_url,
        "--nats",
        nats_url,
        "--players",
        str(players),
        "--seconds",
        str(seconds),
        "--out",
        str(out),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert process.stdout is not None
    timeline = Timeline()
    faults: asyncio.Task[None] | None = None
    async for raw in process.stdout:
        line = raw.decode(errors="replace").rstrip()
        timeline.lines.append(line)
        print(f"  load | {line}", flush=True)
        found = PROGRESS.match(line)
        if found is None:
            continue
        at = float(found["t"])
        timeline.errors.append((at, int(found["errors"])))
        if faults is None and at >= fault_at_s:
            timeline.fault_at_s = at
            faults = asyncio.create_task(fault())
    returncode = await process.wait()
    if faults is not None:
        await faults
    written = sorted(set(out.glob("loadtest-*.json")) - before, key=lambda p: p.stat().st_mtime)
    report: dict[str, Any] = json.loads(written[-1].read_text()) if written else {}
    return LoadRun(returncode, report, timeline)


def now() -> float:
    """Return the monotonic clock in seconds (the driver's own)."""
    return time.monotonic()
