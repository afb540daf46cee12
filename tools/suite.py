"""`make test`, stage by stage: each stage run, timed, and the tests it ran counted.

The stages are make targets (the Makefile holds their commands): the doctor first, which
installs the tools the rest need and stops the run, naming what is missing, when it cannot;
then the static checks, the unit, browser and load tests, and the deployment run. Every
stage after the doctor runs even when one before it failed, so one run shows every fault.
The deployment's images are built in the background from the end of the checks (the
virtual environment is there then) while the unit and browser tests run: both wait, the
tests on their stacks and the build on apt and pip, for part of their time. The load and
deployment stages run alone, so they wait for the build first. At the end: how long each
stage took, and a closing line with the tests passed and failed.
Standard library only: it starts before the virtual environment exists.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "var" / "test-results"


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage: its name, the make target that runs it, whether the run stops if it fails,
    and whether it runs alone (after the background build has finished)."""

    name: str
    target: str
    vital: bool = False
    alone: bool = False


STAGES = (
    Stage("doctor", "doctor", vital=True),
    Stage("checks", "checks"),
    Stage("unit", "unit"),
    Stage("browser", "browser"),
    Stage("load", "load", alone=True),
    Stage("deploy", "deploy-test", alone=True),
)
# Built in the background once the checks are done (`make install` has run by then, so
# two makes never install at once); the deploy stage reuses the images by their tags.
IMAGES = Stage("images", "deploy-images")
STARTS_IMAGES = "checks"


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


class Background:
    """A stage run beside the others, its output kept in a file rather than interleaved."""

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        RESULTS.mkdir(parents=True, exist_ok=True)
        self.log = RESULTS / f"{stage.name}.log"
        print(f"\n=== {stage.name}: make {stage.target}, in the background ({self.log})")
        self._started = time.monotonic()
        self._ended: float | None = None
        with self.log.open("wb") as output:
            self._process = subprocess.Popen(
                ["make", "--no-print-directory", stage.target],
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: stopped whole if the run is
            )
        # Its own time is until it ends, not until it is waited for.
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        self._process.wait()
        self._ended = time.monotonic()

    def wait(self) -> Outcome:
        """Wait for the stage to end; print its output's tail if it failed."""
        print(f"\n=== waiting for {self.stage.name} (make {self.stage.target})", flush=True)
        code = self._process.wait()
        self._watcher.join()
        seconds = (self._ended or time.monotonic()) - self._started
        if code != 0:
            tail = self.log.read_text(errors="replace").splitlines()[-30:]
            print("\n".join([f"{self.stage.name} failed; the end of {self.log}:", *tail]))
        return Outcome(self.stage, code == 0, seconds, None)

    def stop(self) -> None:
        """Stop the stage and everything it started, if it still runs."""
        if self._process.poll() is None:
            os.killpg(self._process.pid, signal.SIGTERM)
            self._process.wait()


def run(stage: Stage) -> Outcome:
    """Run one stage's make target; time it and count its tests."""
    report = RESULTS / f"{stage.name}.xml"
    report.unlink(missing_ok=True)
    print(f"\n=== {stage.name}: make {stage.target}", flush=True)
    started = time.monotonic()
    code = subprocess.run(["make", "--no-print-directory", stage.target], cwd=ROOT).returncode
    seconds = time.monotonic() - started
    return Outcome(stage, code == 0, seconds, tally(report))


def summary(outcomes: list[Outcome], skipped: list[Stage], elapsed: float) -> str:
    """Return the table of stages and times, and the closing line of tests passed and failed.

    ``elapsed`` is the whole run's time: less than the stages' sum when one ran in the
    background (marked ``*``).
    """
    lines = ["", "make test, stage by stage:"]
    for outcome in outcomes:
        counted = f"  {outcome.tally}" if outcome.tally else ""
        verdict = "ok" if outcome.ok else "FAILED"
        minutes, seconds = divmod(round(outcome.seconds), 60)
        beside = " *" if outcome.stage == IMAGES else ""
        lines.append(
            f"  {outcome.stage.name:<8} {verdict:<6} {minutes:3d} min {seconds:02d} s"
            f"{counted}{beside}"
        )
    lines += [f"  {stage.name:<8} not run" for stage in skipped]
    if any(outcome.stage == IMAGES for outcome in outcomes):
        lines.append("  * in the background, beside the stages above it")
    minutes, seconds = divmod(round(elapsed), 60)
    lines.append(f"  {'total':<8} {'':<6} {minutes:3d} min {seconds:02d} s")
    total = sum((o.tally for o in outcomes if o.tally), Tally())
    lines.append(f"tests: {total}")
    return "\n".join(lines)


def main() -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    outcomes: list[Outcome] = []
    remaining = list(STAGES)
    background: Background | None = None
    try:
        while remaining:
            stage = remaining.pop(0)
            if stage.alone and background is not None:
                outcomes.append(background.wait())
                background = None
            outcome = run(stage)
            outcomes.append(outcome)
            if outcome.stage.vital and not outcome.ok:
                break
            if stage.name == STARTS_IMAGES:
                background = Background(IMAGES)
    finally:
        if background is not None:
            background.stop()
        print(summary(outcomes, remaining, time.monotonic() - started), flush=True)
    sys.exit(0 if not remaining and all(o.ok for o in outcomes) else 1)


if __name__ == "__main__":
    main()
