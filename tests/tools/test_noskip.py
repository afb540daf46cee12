"""--no-skip (make test): a skip becomes a failure that says why; without it, a skip is a skip."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest_plugins = ["pytester"]

SKIPPING = """
import shutil
import pytest

def test_needs_a_tool():
    if shutil.which("pf-no-such-tool") is None:
        pytest.skip("pf-no-such-tool (Debian: pf-tools) missing")

@pytest.mark.skipif(True, reason="never here")
def test_marked():
    pass

@pytest.mark.xfail(reason="known", strict=True)
def test_expected_to_fail():
    assert False

def test_plain():
    pass
"""


@pytest.fixture(autouse=True)
def importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pytest that pytester starts loads tests.noskip from this checkout."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


def test_under_no_skip_a_skip_fails_with_its_reason(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_tools=SKIPPING)
    result = pytester.runpytest_subprocess(
        "-p", "tests.noskip", "--no-skip", "-p", "no:cacheprovider"
    )
    result.assert_outcomes(passed=1, failed=1, errors=1, xfailed=1)
    result.stdout.fnmatch_lines(
        [
            "*would have skipped, and --no-skip forbids it: "
            "pf-no-such-tool (Debian: pf-tools) missing*"
        ]
    )
    result.stdout.fnmatch_lines(["*would have skipped, and --no-skip forbids it: never here*"])


def test_without_it_a_skip_is_a_skip(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_tools=SKIPPING)
    result = pytester.runpytest_subprocess("-p", "tests.noskip", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, skipped=2, xfailed=1)
