"""py-spy profiles of the services under the bench's load, and their top entries.

``python -m bench.stack --profile DIR`` samples each Python service of the stack (rules,
arbitration, gateway) with py-spy during the measured window, writes the raw samples to
``DIR/<service>.txt`` and prints the functions holding the most samples: by their own
time, and including what they call.

Only samples of a thread holding the GIL count (``--gil``): the event loop lets it go
while it waits in ``epoll``, so what is left is the Python, the C it calls, and the
system calls made holding it (uvloop's reads and writes). py-spy reads each stack with the
process stopped: read while it runs (``--nonblocking``), a stack is often cut short at
the event loop, which then seemed to own 60-85 % of the time that ``perf`` puts in the
interpreter (docs/performance.md). Stopping the process 200 times a second slows it and
makes the arbitration see its loop late: the CPU table of a profiled run is not a figure
to compare, and its timing faults are the profiler's.
"""

from __future__ import annotations

import asyncio
import re
import sysconfig
from collections import Counter
from pathlib import Path

PROFILED = ("rules", "arbitration", "gateway")
RATE_HZ = 200
TOP = 12

_FRAME = re.compile(r"(?P<function>.*?) \((?P<path>.*?)(?::\d+)?\)$")


async def record(pids: dict[str, int], seconds: float, folder: Path) -> list[Path]:
    """Sample every profiled service at once for ``seconds``; return the raw sample files."""
    folder.mkdir(parents=True, exist_ok=True)
    spy = Path(sysconfig.get_path("scripts"), "py-spy")
    runs, files = [], []
    for name in PROFILED:
        if name not in pids:
            continue
        out = folder / f"{name}.txt"
        files.append(out)
        runs.append(
            await asyncio.create_subprocess_exec(
                str(spy), "record", "--pid", str(pids[name]), "--duration", str(int(seconds)),
                "--rate", str(RATE_HZ), "--format", "raw", "--gil", "-o", str(out),
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
            )
        )  # fmt: skip
    for run in runs:
        await run.wait()
    return [f for f in files if f.exists()]


def short(frame: str) -> str:
    """Return a frame as "function (module path)", without the install prefix or line."""
    found = _FRAME.match(frame)
    if found is None:
        return frame
    path = re.sub(r".*/(site-packages|lib/python3\.\d+)/", "", found["path"])
    path = re.sub(r".*/work/[^/]+/", "", path)
    return f"{found['function']} ({path})"


def summary(samples: Path, top: int = TOP) -> str:
    """Return the top entries of one raw py-spy file, own time and inclusive."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in samples.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [short(f) for f in stack.split(";")]
        total += int(count)
        own[frames[-1]] += int(count)
        for frame in set(frames):
            inclusive[frame] += int(count)
    skip = ("runpy", "asyncio/runners", "run_until_complete", "run_forever", "<module>")
    lines = [f"{samples.stem}: {total} samples holding the GIL at {RATE_HZ} Hz", "  own time:"]
    lines += [f"    {100 * n / total:5.1f}% {f}" for f, n in own.most_common(top)]
    lines.append("  including callees:")
    kept = [(f, n) for f, n in inclusive.most_common() if not any(s in f for s in skip)]
    lines += [f"    {100 * n / total:5.1f}% {f}" for f, n in kept[:top]]
    return "\n".join(lines)
