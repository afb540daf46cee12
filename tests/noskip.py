"""``--no-skip``: a test that would skip fails instead, giving the skip's reason.

`make test` runs with it: every tool a test needs is installed by the project (make doctor),
so a skip there means a test that checked nothing on the machine where it mattered.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-skip",
        action="store_true",
        help="a test that would skip fails instead (make test: every tool it needs is installed)",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Under --no-skip, report a skip as a failure that gives the skip's reason (an error,
    when the skip came in setup: a ``skipif`` mark or a fixture)."""
    report = yield
    if report.skipped and not hasattr(report, "wasxfail") and item.config.getoption("no_skip"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        reason = str(reason).removeprefix("Skipped: ")
        report.outcome = "failed"
        report.longrepr = f"would have skipped, and --no-skip forbids it: {reason}"
    return report
