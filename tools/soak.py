"""`python -m tools.soak --runs 5 --busy 2`: the test stages again and again, to find flaky tests.

Each run is the unit, browser and load stages of `make test` (make unit browser load); the
last ``--busy`` runs have every core kept busy meanwhile by spinning processes, as on a
machine shared with other work. At the end: each run's outcome and time, and every test that
failed, with how often and in which runs (from the stages' JUnit XML reports, kept per run in
var/soak/). A test that fails in some runs and not others, on the same code, is flaky.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import subprocess
import time
from collections import defaultdict

from tools.suite import RESULTS, ROOT, failures

STAGES = ("unit", "browser", "load")
KEPT = ROOT / "var" / "soak"


def spin() -> None:
    """Keep one core busy until killed."""
    while True:
        pass


def one_run(index: int, busy: bool) -> tuple[bool, float, list[str]]:
    """Run the stages once (with every core busy if ``busy``); return ok, seconds, failures."""
    spinners = []
    if busy:
        spinners = [
            multiprocessing.Process(target=spin, daemon=True) for _ in range(os.cpu_count() or 2)
        ]
        for spinner in spinners:
            spinner.start()
    started = time.monotonic()
    try:
        done = subprocess.run(
            ["make", "--no-print-directory", "-k", *STAGES], cwd=ROOT, check=False
        )
    finally:
        for spinner in spinners:
            spinner.kill()
    seconds = time.monotonic() - started
    kept = KEPT / f"run-{index}"
    kept.mkdir(parents=True, exist_ok=True)
    failed = []
    for stage in STAGES:
        report = RESULTS / f"{stage}.xml"
        if report.is_file():
            shutil.copy(report, kept / report.name)
        failed += failures(report)
    return done.returncode == 0, seconds, failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--busy", type=int, default=2, help="how many of the runs (the last) are busy"
    )
    args = parser.parse_args()
    shutil.rmtree(KEPT, ignore_errors=True)
    seen: dict[str, list[int]] = defaultdict(list)
    lines = []
    for index in range(1, args.runs + 1):
        busy = index > args.runs - args.busy
        ok, seconds, failed = one_run(index, busy)
        for test in failed:
            seen[test].append(index)
        load = "busy" if busy else "idle"
        lines.append(
            f"  run {index} ({load}): {'ok' if ok else 'FAILED'} in {seconds / 60:.1f} min"
        )
        print(f"\nsoak: run {index} of {args.runs} ({load}) {'ok' if ok else 'FAILED'}", flush=True)
    print("\nsoak:", *lines, sep="\n")
    for test, runs in sorted(seen.items()):
        print(f"  failed in runs {', '.join(map(str, runs))}: {test}")
    if not seen:
        print("  no test failed")


if __name__ == "__main__":
    main()
