"""The failed sign-ins alert fires on guessing, not on people mistyping: `promtool test rules`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.deploy.paths import RULES

PROMTOOL = shutil.which("promtool")
SERIES = 'pf_accounts_failed_sign_ins_total{job="accounts",instance="accounts:7206"}'
SPIKE = {
    "exp_labels": {"severity": "ticket"},
    "exp_annotations": {
        "summary": "400 failed sign-ins in 5 minutes: someone is guessing passwords",
        "runbook": "docs/alerts.md#signinfailuresspike",
    },
}

CASES: dict[str, dict[str, Any]] = {
    # 20 every 15 seconds for 15 minutes: 400 in every 5 minutes, firing once it lasted 5.
    "guessing": {
        "input_series": [{"series": SERIES, "values": "0+20x60"}],
        "alert_rule_test": [
            {"eval_time": "4m", "alertname": "SignInFailuresSpike", "exp_alerts": []},
            {"eval_time": "12m", "alertname": "SignInFailuresSpike", "exp_alerts": [SPIKE]},
        ],
    },
    # People mistyping: one failure every 15 seconds, 20 in 5 minutes, all day.
    "mistyping": {
        "input_series": [{"series": SERIES, "values": "0+1x400"}],
        "alert_rule_test": [
            {"eval_time": "90m", "alertname": "SignInFailuresSpike", "exp_alerts": []}
        ],
    },
}


@pytest.mark.parametrize("case", CASES)
def test_the_sign_in_alert_fires_when_and_only_when_it_should(case: str, tmp_path: Path) -> None:
    assert PROMTOOL is not None, "promtool is not installed (Debian: prometheus; make doctor)"
    tests = tmp_path / "account_alerts_test.yml"
    tests.write_text(
        yaml.safe_dump(
            {
                "rule_files": [str(path) for path in RULES],
                "evaluation_interval": "15s",
                "tests": [{"interval": "15s", **CASES[case]}],
            }
        )
    )
    run = subprocess.run(
        [PROMTOOL, "test", "rules", str(tests)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
