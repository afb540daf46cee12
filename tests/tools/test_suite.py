"""make test's stage table: tests counted from each stage's JUnit XML, times, what did not run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.suite import IMAGES, STAGES, Background, Outcome, Stage, Tally, failures, summary, tally

pytest_plugins = ["pytester"]


def test_a_stages_tests_are_counted_from_its_report(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_counted="""
import pytest
def test_a(): pass
def test_b(): pass
def test_c(): assert False
@pytest.mark.skip(reason="x")
def test_d(): pass
@pytest.fixture
def broken(): raise RuntimeError
def test_e(broken): pass
"""
    )
    report = pytester.path / "unit.xml"
    pytester.runpytest_subprocess(f"--junitxml={report}", "-p", "no:cacheprovider")
    assert tally(report) == Tally(passed=2, failed=2, skipped=1)
    assert failures(report) == ["test_counted::test_c", "test_counted::test_e"]


def test_a_stage_without_a_report_counts_nothing(tmp_path: Path) -> None:
    assert tally(tmp_path / "none.xml") is None
    assert failures(tmp_path / "none.xml") == []


def test_the_summary_times_each_stage_and_closes_with_the_tests() -> None:
    doctor, checks, unit, *rest = STAGES
    outcomes = [
        Outcome(doctor, True, 4.2, None),
        Outcome(checks, True, 61.0, None),
        Outcome(unit, False, 345.6, Tally(1599, 1, 0)),
    ]
    lines = summary(outcomes, rest, 410.8).splitlines()
    assert lines[2].split() == ["doctor", "ok", "0", "min", "04", "s"]
    assert lines[4].split()[:6] == ["unit", "FAILED", "5", "min", "46", "s"]
    assert lines[4].endswith("1599 passed, 1 failed, 0 skipped")
    assert [line.split()[0] for line in lines[5:8]] == ["browser", "load", "deploy"]
    assert all(line.endswith("not run") for line in lines[5:8])
    assert lines[-2].split() == ["total", "6", "min", "51", "s"]
    assert lines[-1] == "tests: 1599 passed, 1 failed, 0 skipped"


def test_the_background_build_is_marked_and_the_total_is_the_runs_own_time() -> None:
    doctor, checks, unit, browser, load, deploy = STAGES
    outcomes = [
        Outcome(doctor, True, 4.0, None),
        Outcome(checks, True, 60.0, None),
        Outcome(unit, True, 300.0, Tally(10, 0, 0)),
        Outcome(browser, True, 200.0, Tally(5, 0, 0)),
        Outcome(IMAGES, True, 320.0, None),
        Outcome(load, True, 100.0, Tally(3, 0, 0)),
        Outcome(deploy, True, 120.0, None),
    ]
    lines = summary(outcomes, [], 785.0).splitlines()
    assert lines[6].split() == ["images", "ok", "5", "min", "20", "s", "*"]
    assert lines[9] == "  * in the background, beside the stages above it"
    assert lines[-2].split() == ["total", "13", "min", "05", "s"]
    assert lines[-1] == "tests: 18 passed, 0 failed, 0 skipped"


def test_a_background_stage_that_fails_is_reported_with_its_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stage = Stage("probe", "no-such-target-here")
    outcome = Background(stage).wait()
    assert (outcome.stage, outcome.ok, outcome.tally) == (stage, False, None)
    printed = capsys.readouterr().out
    assert "probe failed; the end of" in printed
    assert "No rule to make target 'no-such-target-here'" in printed
