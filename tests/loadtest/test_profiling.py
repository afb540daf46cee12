"""The profile summary: py-spy's raw lines read into own and inclusive shares."""

from __future__ import annotations

from pathlib import Path

from bench.stack.profiling import short, summary

MAIN = "<module> (/work/main/services/rules/__main__.py:40)"
ANSWER = "answer (/work/main/services/rules/held_calls.py:22)"
VIEW = "view (/work/main/games/bid/view.py:85)"
SELECT = "select (/usr/lib/python3.11/selectors.py:468)"
RAW = f"{MAIN};{ANSWER};{VIEW} 3\n{MAIN};{SELECT} 1\n"


def test_a_frame_is_named_by_function_and_module_path() -> None:
    frame = "write (/x/lib/python3.11/site-packages/nats/aio/client.py:12)"
    assert short(frame) == "write (nats/aio/client.py)"


def test_shares_of_own_time_and_with_callees(tmp_path: Path) -> None:
    samples = tmp_path / "rules.txt"
    samples.write_text(RAW)
    text = summary(samples)
    assert text.splitlines()[0] == "rules: 4 samples holding the GIL at 200 Hz"
    assert "   75.0% view (games/bid/view.py)" in text
    assert "   25.0% select (selectors.py)" in text
    including = text.split("including callees:")[1]
    assert "   75.0% answer (services/rules/held_calls.py)" in including
    assert "<module>" not in including
