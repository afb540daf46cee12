"""Running the alert rules' unit tests with `promtool test rules`, as the rule tests share."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

from tests.deploy.paths import RULES

PROMTOOL = shutil.which("promtool")


def assert_rules_hold(case: dict[str, Any], folder: Path) -> None:
    """Run one ``promtool test rules`` case (its series and expected alerts) on the rules."""
    assert PROMTOOL is not None, "promtool is not installed (Debian: prometheus; make doctor)"
    tests = folder / "rules_test.yml"
    tests.write_text(
        yaml.safe_dump(
            {
                "rule_files": [str(path) for path in RULES],
                "evaluation_interval": "15s",
                "tests": [{"interval": "15s", **case}],
            }
        )
    )
    run = subprocess.run(
        [PROMTOOL, "test", "rules", str(tests)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
