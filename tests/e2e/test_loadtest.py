"""The load test harness itself, small: a few bots for seconds, every check, the report.

Keeps ``make loadtest`` from rotting: the same code path with 8 players in two ~12 s
tournaments (Spit and Bid), on a stack of its own.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.loadtest.runner import run
from bench.loadtest.settings import Settings


@pytest.mark.load
async def test_a_small_tournament_event_passes_every_check_and_writes_the_report(
    tmp_path: Path,
) -> None:
    settings = Settings(
        players=8, seconds=12, out=tmp_path, quiet=True, data_dir=tmp_path / "stack"
    )
    report = await run(settings)  # the stack's logs stay in tmp_path/stack/logs
    failed = [(c["name"], c["failures"]) for c in report["checks"] if not c["passed"]]
    assert not failed, failed
    assert {c["name"] for c in report["checks"]} >= {
        "no lost results",
        "no errors on the client side",
    }
    assert all(c["checked"] > 0 for c in report["checks"] if c["name"] != "every void explained")
    assert report["commands"]["accepted"] > 0 and report["latency_ms"]["count"] > 0
    # The arbitration's /metrics were read over the run: its log stores are counted.
    assert report["log_store_ms"]["count"] > 0
    assert report["matches_played"] >= 4
    saved = json.loads(Path(report["files"]["json"]).read_text())
    assert saved["all_checks_passed"] is True
    page = Path(report["files"]["html"]).read_text()
    assert page.startswith("<!doctype html>") and page.count("<svg") >= 6
    assert "src=" not in page and "href=" not in page  # self-contained: nothing fetched
