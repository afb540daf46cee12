"""`make test`, stage by stage: each stage run, timed, and the tests it ran counted.

The stages are make targets (the Makefile holds their commands): the doctor first, which
installs the tools the rest need and stops the run, naming what is missing, when it cannot;
then the static checks, the unit, browser and load tests, and the deployment run. Every
stage after the doctor runs even when one before it failed, so one run shows every fault.
At the end: how long each stage took, and a closing line with the tests passed and failed.
Standard library only: it starts before the virtual environment exists.
"""

from __future__ import annotations

import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "var" / "test-results"


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage: its name, the make target that runs it, whether the run stops if it fails."""

    name: str
    target: str
    vital: bool = False


STAGES = (
    Stage("doctor", "doctor", vital=True),
    Stage("checks", "checks"),
    Stage("unit", "unit"),
    Stage("browser", "browser"),
    Stage("load", "load"),
    Stage("deploy", "deploy-test"),
)


@dataclass(frozen=True, slots=True)
class Tally:
    """The tests one stage ran, from its JUnit XML report."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.passed + other.passed, self.failed + other.failed, self.skipped + other.skipped
        )

    def __str__(self) -> str:
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"


@dataclass(frozen=True, slots=True)
class Outcome:
    stage: Stage
    ok: bool
    seconds: float
    tally: Tally | None


def tally(report: Path) -> Tally | None:
    """Count the tests of a pytest JUnit XML report, or None when there is none."""
    if not report.is_file():
        return None
    total = Tally()
    for suite in ElementTree.parse(report).getroot().iter("testsuite"):
        tests, skipped = int(suite.get("tests", 0)), int(suite.get("skipped", 0))
        failed = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        total += Tally(tests - failed - skipped, failed, skipped)
    return total


def failures(report: Path) -> list[str]:
    """Return the ids of the tests that failed or erred in a JUnit XML report."""
    if not report.is_file():
        return []
    return [
        f"{case.get('classname')}::{case.get('name')}"
        for case in ElementTree.parse(report).getroot().iter("testcase")
        if case.find("failure") is not None or case.find("error") is not None
    ]


def run(stage: Stage) -> Outcome:
    """Run one stage's make target; time it and count its tests."""
    report = RESULTS / f"{stage.name}.xml"
    report.unlink(missing_ok=True)
    print(f"\n=== {stage.name}: make {stage.target}", flush=True)
    started = time.monotonic()
    code = subprocess.run(["make", "--no-print-directory", stage.target], cwd=ROOT).returncode
    seconds = time.monotonic() - started
    return Outcome(stage, code == 0, seconds, tally(report))


def summary(outcomes: list[Outcome], skipped: list[Stage]) -> str:
    """Return the table of stages and times, and the closing line of tests passed and failed."""
    lines = ["", "make test, stage by stage:"]
    for outcome in outcomes:
        counted = f"  {outcome.tally}" if outcome.tally else ""
        verdict = "ok" if outcome.ok else "FAILED"
        minutes, seconds = divmod(round(outcome.seconds), 60)
        lines.append(
            f"  {outcome.stage.name:<8} {verdict:<6} {minutes:3d} min {seconds:02d} s{counted}"
        )
    lines += [f"  {stage.name:<8} not run" for stage in skipped]
    minutes, seconds = divmod(round(sum(o.seconds for o in outcomes)), 60)
    lines.append(f"  {'total':<8} {'':<6} {minutes:3d} min {seconds:02d} s")
    total = sum((o.tally for o in outcomes if o.tally), Tally())
    lines.append(f"tests: {total}")
    return "\n".join(lines)


def main() -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    outcomes: list[Outcome] = []
    remaining = list(STAGES)
    try:
        while remaining:
            outcome = run(remaining.pop(0))
            outcomes.append(outcome)
            if outcome.stage.vital and not outcome.ok:
                break
    finally:
        print(summary(outcomes, remaining), flush=True)
    sys.exit(0 if len(outcomes) == len(STAGES) and all(o.ok for o in outcomes) else 1)


if __name__ == "__main__":
    main()
