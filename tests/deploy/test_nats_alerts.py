"""The NATS alerts fire on the series an outage gives, and not on a blip: `promtool test rules`.

And the match log's feeding of the rules: a steady stream of commands it did not feed
pages a ticket; the burst a dying rules instance makes does not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.deploy.promtool import assert_rules_hold

ARBITRATION = 'job="arbitration",instance="arbitration:7202"'
RATINGS = 'job="ratings",instance="ratings:7201"'
RUNBOOK = "docs/alerts.md#"
UNAVAILABLE = {
    "exp_labels": {"severity": "page"},
    "exp_annotations": {
        "summary": "JetStream stores nothing: publishes fail and none succeeds,"
        " or no service reaches NATS",
        "runbook": RUNBOOK + "jetstreamunavailable",
    },
}


def connected(labels: str, connection: str, values: str) -> dict[str, str]:
    return {"series": f'pf_nats_connected{{{labels},connection="{connection}"}}', "values": values}


def publishes(errors: str, acked: str) -> list[dict[str, str]]:
    stream = f'{ARBITRATION},stream="PF_MATCH_LOG"'
    return [
        {"series": f"pf_jetstream_publish_errors_total{{{stream}}}", "values": errors},
        {"series": f"pf_jetstream_publish_seconds_count{{{stream}}}", "values": acked},
    ]


def asked_directly(why: str, values: str) -> dict[str, str]:
    return {
        "series": f'pf_stored_commands_asked_directly_total{{{ARBITRATION},why="{why}"}}',
        "values": values,
    }


NOT_FED = {
    "exp_labels": {"severity": "ticket"},
    "exp_annotations": {
        "summary": "2 commands a minute were not fed to the rules by the match log",
        "runbook": RUNBOOK + "storedcommandsnotfed",
    },
}


def alerts(name: str, at: str, expected: list[dict[str, Any]]) -> dict[str, Any]:
    return {"eval_time": at, "alertname": name, "exp_alerts": expected}


def disconnected(labels: str, connection: str) -> dict[str, Any]:
    job, instance = (part.split("=")[1].strip('"') for part in labels.split(","))
    return {
        "exp_labels": {
            "severity": "page",
            "job": job,
            "instance": instance,
            "connection": connection,
        },
        "exp_annotations": {
            "summary": f"{job} ({instance}) has lost its NATS connection {connection} for a minute",
            "runbook": RUNBOOK + "natsdisconnected",
        },
    }


CASES: dict[str, dict[str, Any]] = {
    "publishes fail and none succeeds": {
        "input_series": [
            *publishes(errors="0+1x40", acked="500x40"),
            connected(ARBITRATION, "arbitration-0", "1x40"),
        ],
        "alert_rule_test": [
            alerts("JetStreamUnavailable", "30s", []),  # not at once: for 1m
            alerts("JetStreamUnavailable", "3m", [UNAVAILABLE]),
            alerts("NatsDisconnected", "3m", []),
        ],
    },
    "a leader election: some publishes fail, others are acknowledged": {
        "input_series": publishes(errors="0 0 3 6 6x36", acked="0+10x40"),
        "alert_rule_test": [alerts("JetStreamUnavailable", f"{m}m", []) for m in (1, 2, 3)],
    },
    "every connection down": {
        "input_series": [
            connected(ARBITRATION, "arbitration-0", "1 1 0x38"),
            connected(ARBITRATION, "arbitration-0-link", "1 1 0x38"),
            connected(RATINGS, "ratings", "1 1 0x38"),
        ],
        "alert_rule_test": [
            alerts("JetStreamUnavailable", "2m", [UNAVAILABLE]),
            alerts(
                "NatsDisconnected",
                "2m",
                [
                    disconnected(ARBITRATION, "arbitration-0"),
                    disconnected(ARBITRATION, "arbitration-0-link"),
                    disconnected(RATINGS, "ratings"),
                ],
            ),
        ],
    },
    "one service down, the others connected": {
        "input_series": [
            connected(ARBITRATION, "arbitration-0", "1x40"),
            connected(RATINGS, "ratings", "1 1 0x38"),
        ],
        "alert_rule_test": [
            alerts("JetStreamUnavailable", "2m", []),
            alerts("NatsDisconnected", "45s", []),  # not at once: for 1m
            alerts("NatsDisconnected", "2m", [disconnected(RATINGS, "ratings")]),
        ],
    },
    "a consumer behind for ten minutes": {
        "input_series": [
            {
                "series": "pf_jetstream_consumer_pending"
                f'{{{RATINGS},stream="PF_RESULTS",consumer="ratings"}}',
                "values": "150x60",
            },
            {
                "series": "pf_jetstream_consumer_pending"
                '{job="tournaments",instance="tournaments:7204",'
                'stream="PF_RESULTS",consumer="tournaments"}',
                "values": "3x60",
            },
        ],
        "alert_rule_test": [
            alerts("ConsumerLagHigh", "5m", []),
            alerts(
                "ConsumerLagHigh",
                "12m",
                [
                    {
                        "exp_labels": {
                            "severity": "ticket",
                            "stream": "PF_RESULTS",
                            "consumer": "ratings",
                        },
                        "exp_annotations": {
                            "summary": "150 messages of PF_RESULTS wait for consumer ratings",
                            "runbook": RUNBOOK + "consumerlaghigh",
                        },
                    }
                ],
            ),
        ],
    },
    "the log feeds the rules nothing: every command is asked directly": {
        # 2 a minute for 20 minutes (a sample every 15 s).
        "input_series": [asked_directly("timeout", "0+0.5x80"), asked_directly("not_held", "0x80")],
        "alert_rule_test": [
            alerts("StoredCommandsNotFed", "8m", []),  # not at once: for 10m
            alerts("StoredCommandsNotFed", "17m", [NOT_FED]),
        ],
    },
    "a rules instance dies: one burst, then the new holder answers": {
        "input_series": [
            asked_directly("timeout", "0x8 40x72"),
            asked_directly("not_held", "0x80"),
        ],
        "alert_rule_test": [alerts("StoredCommandsNotFed", f"{m}m", []) for m in (3, 9, 15)],
    },
    "holders that restarted or dropped idle matches (not held): no alert": {
        "input_series": [asked_directly("not_held", "0+1x80")],
        "alert_rule_test": [alerts("StoredCommandsNotFed", "17m", [])],
    },
}


@pytest.mark.parametrize("case", CASES)
def test_the_nats_alerts_fire_when_and_only_when_they_should(case: str, tmp_path: Path) -> None:
    assert_rules_hold(CASES[case], tmp_path)
