"""Alert rules and dashboards parse, and read only metrics the services really export."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from services.stack.stack import SERVICES
from tests.deploy.exported import exported_names
from tests.deploy.paths import DASHBOARDS, DEPLOY, PROMETHEUS_CONFIGS, RULES
from tests.deploy.promql import metric_names

REQUIRED_ALERTS = {
    "TimingFaults",
    "TimingFaultRateHigh",
    "MatchesVoided",
    "VoidRateHigh",
    "CommandLatencyBudgetBurnFast",
    "CommandLatencyBudgetBurnSlow",
    "ServiceDown",
    "RatingsConsumerLag",
    "JetStreamUnavailable",
    "NatsDisconnected",
    "ConsumerLagHigh",
}


def rules() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for path in RULES:
        for group in yaml.safe_load(path.read_text())["groups"]:
            found += group["rules"]
    return found


def recorded() -> set[str]:
    return {rule["record"] for rule in rules() if "record" in rule}


def panels(dashboard: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for panel in dashboard["panels"]:
        found += [panel, *panel.get("panels", [])]
    return found


def test_every_alert_the_issue_asks_for_is_defined_with_a_severity_and_a_runbook() -> None:
    alerts = {rule["alert"]: rule for rule in rules() if "alert" in rule}
    assert set(alerts) >= REQUIRED_ALERTS
    for name, rule in alerts.items():
        assert rule["labels"]["severity"] in {"page", "ticket"}, name
        assert rule["annotations"]["runbook"] == f"docs/alerts.md#{name.lower()}"


def test_every_runbook_anchor_has_a_section_in_the_alerts_doc() -> None:
    doc = (DEPLOY.parent / "docs" / "alerts.md").read_text()
    for rule in rules():
        if "alert" in rule:
            assert f"## {rule['alert']}\n" in doc, rule["alert"]


@pytest.mark.parametrize("rule", rules(), ids=lambda r: r.get("alert") or r["record"])
def test_a_rule_is_valid_promql_over_exported_metrics(rule: dict[str, Any]) -> None:
    unknown = metric_names(rule["expr"]) - exported_names() - recorded()
    assert not unknown, f"{rule.get('alert') or rule['record']} reads metrics nobody exports"


def test_both_prometheus_configs_load_the_rules_and_name_jobs_alike() -> None:
    for path in PROMETHEUS_CONFIGS:
        config = yaml.safe_load(path.read_text())
        assert config["rule_files"] == ["/etc/prometheus/rules/*.yml"], path
    compose, k8s = (yaml.safe_load(path.read_text()) for path in PROMETHEUS_CONFIGS)
    compose_jobs = {job["job_name"] for job in compose["scrape_configs"]}
    assert compose_jobs == {*SERVICES, "accounts", "gateway", "prometheus"}
    # Kubernetes names each pod's job after its app.kubernetes.io/name, which
    # test_kubernetes checks is the service's name: the same jobs as above.
    (pods,) = (job for job in k8s["scrape_configs"] if "kubernetes_sd_configs" in job)
    job_label = [r for r in pods["relabel_configs"] if r.get("target_label") == "job"]
    assert job_label == [
        {
            "source_labels": ["__meta_kubernetes_pod_label_app_kubernetes_io_name"],
            "target_label": "job",
        }
    ]


@pytest.mark.parametrize("path", DASHBOARDS, ids=lambda p: p.name)
def test_every_dashboard_query_is_valid_promql_over_exported_metrics(path: Any) -> None:
    dashboard = json.loads(path.read_text())
    assert dashboard["uid"] and dashboard["title"]
    known = exported_names() | recorded()
    queries = 0
    for panel in panels(dashboard):
        for target in panel.get("targets", []):
            unknown = metric_names(target["expr"]) - known
            assert not unknown, f"panel {panel['title']!r} reads metrics nobody exports"
            assert target["datasource"]["uid"] == "prometheus"
            queries += 1
    assert queries >= 20


def test_the_dashboard_covers_the_figures_the_issue_lists() -> None:
    text = " ".join(path.read_text() for path in DASHBOARDS)
    for metric in (
        "pf_live_matches",
        "pf_gateway_open_streams",
        "pf_commands_total",
        "pf_gateway_unary_seconds_bucket",
        "pf_deadline_timer_lateness_seconds_bucket",
        "pf_forwarding_delay_seconds_bucket",
        "pf_event_loop_lag_seconds_bucket",
        "pf_timing_faults_total",
        "pf_voids_total",
        "pf_matchmaking_queue_length",
        "pf_matchmaking_wait_seconds_bucket",
        "pf_log_store_seconds_bucket",
        "pf_ratings_update_seconds_bucket",
        "pf_ratings_consumer_pending",
        "pf_tournament_games_opened_total",
    ):
        assert metric in text, metric


def test_grafana_provisioning_points_at_the_prometheus_and_the_dashboards_folder() -> None:
    provisioning = DEPLOY / "grafana" / "provisioning"
    source = yaml.safe_load((provisioning / "datasources" / "prometheus.yml").read_text())
    assert source["datasources"][0]["uid"] == "prometheus"
    assert source["datasources"][0]["url"] == "http://prometheus:9090"
    provider = yaml.safe_load((provisioning / "dashboards" / "photofinish.yml").read_text())
    assert provider["providers"][0]["options"]["path"] == "/var/lib/grafana/dashboards"


def test_an_expression_naming_a_missing_metric_is_caught() -> None:
    assert metric_names("rate(pf_no_such_thing_total[5m])") - exported_names() == {
        "pf_no_such_thing_total"
    }
    with pytest.raises(ValueError):
        metric_names("sum(rate(pf_commands_total[5m])")
