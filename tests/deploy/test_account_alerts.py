"""The failed sign-ins alert fires on guessing, not on people mistyping: `promtool test rules`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.deploy.promtool import assert_rules_hold

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
    assert_rules_hold(CASES[case], tmp_path)
