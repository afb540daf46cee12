"""The replay worker dies with its rules process: nothing outlives a SIGKILL."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.waiting import poll_until

ROOT = Path(__file__).resolve().parents[2]
# A stand-in rules process: its replay worker started and busy, then waiting to be killed.
RULES = """
import os, sys, time
from services.rules.replay_requests import replay_worker
worker = replay_worker()
print(worker.submit(os.getpid).result(), flush=True)
time.sleep(600)
"""


def children(pid: int) -> set[int]:
    """Return the processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has died: only its entry waits to be reaped


async def test_a_killed_rules_process_leaves_no_replay_worker_behind() -> None:
    rules = subprocess.Popen(
        [sys.executable, "-c", RULES], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert rules.stdout is not None
        worker = int(await asyncio.to_thread(rules.stdout.readline))
        spawned = children(rules.pid)
        assert worker in spawned and len(spawned) >= 2, spawned  # the worker, the tracker
        os.kill(rules.pid, signal.SIGKILL)
        rules.wait()
        await poll_until(
            "the worker and the resource tracker are gone",
            lambda: not any(alive(pid) for pid in spawned),
        )
    finally:
        rules.kill()
        rules.wait()
