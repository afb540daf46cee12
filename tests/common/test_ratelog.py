"""Warnings a stranger can cause: a few lines a window, and a count of the rest."""

from __future__ import annotations

import logging

import pytest

from services.common.ratelog import RateLimitedWarnings


def test_a_flood_logs_ten_lines_a_minute_and_counts_the_rest(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    warnings = RateLimitedWarnings(logging.getLogger("t"), 10, 60.0, lambda: now[0])
    with caplog.at_level(logging.WARNING, "t"):
        for number in range(25):
            warnings.warning("bad", {"n": number})
        now[0] = 59.9
        warnings.warning("bad", {"n": 25})
        assert len(caplog.records) == 10
        now[0] = 60.0
        warnings.warning("bad", {"n": 26})
    assert len(caplog.records) == 11
    last = caplog.records[-1]
    assert last.fields == {"n": 26, "held_back_before": 16}  # type: ignore[attr-defined]
    assert all(record.exc_info is None for record in caplog.records)
    assert [r.fields["n"] for r in caplog.records[:10]] == list(range(10))  # type: ignore[attr-defined]
