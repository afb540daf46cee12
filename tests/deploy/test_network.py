"""The production overlay's way in (an HTTPS Ingress to the gateway) and who may call whom."""

from __future__ import annotations

from typing import Any

import pytest

from tests.deploy.paths import OVERLAYS
from tests.deploy.render import Resource, build

PRODUCTION = OVERLAYS[1]
# Serving port of each workload, and the pods that call it there (docs/deploy.md).
CALLERS: dict[str, tuple[int, set[str]]] = {
    "gateway": (7100, {"bots"}),
    "arbitration": (7102, {"gateway"}),
    "matchmaking": (7103, {"gateway", "bots"}),  # the bot pool's order stream
    "ratings": (7104, {"gateway", "matchmaking"}),
    "tournaments": (7105, {"gateway"}),
    "accounts": (7106, {"gateway"}),
    "postgres": (5432, {"ratings", "tournaments", "accounts"}),
    "prometheus": (9090, {"grafana"}),
    "nats": (
        4222,
        {"gateway", "arbitration", "rules", "matchmaking", "ratings", "tournaments", "accounts"},
    ),
}
CALLERS["nats"][1].add("nats")  # the bot pool has no NATS
METRICS = {"rules": 7200, "ratings": 7201, "arbitration": 7202, "matchmaking": 7203}
METRICS |= {"tournaments": 7204, "gateway": 7205, "accounts": 7206}
PODS = sorted({*CALLERS, *METRICS, "bots", "grafana"})


def production() -> list[Resource]:
    return build(PRODUCTION)


def policies() -> list[Resource]:
    return [r for r in production() if r["kind"] == "NetworkPolicy"]


def selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """Return whether a label selector (matchLabels, matchExpressions In) picks ``labels``."""
    assert set(selector) <= {"matchLabels", "matchExpressions"}, selector
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for term in selector.get("matchExpressions") or []:
        assert term["operator"] == "In", term
        if labels.get(term["key"]) not in term["values"]:
            return False
    return True


def admitted(source: str | None, target: str, port: int) -> bool:
    """Return whether the policies let ``source`` (a pod name; None: outside the namespace,
    from the ingress controller's) open ``port`` on ``target``."""
    labels = {"app.kubernetes.io/name": target}
    applying = [p for p in policies() if selects(p["spec"]["podSelector"], labels)]
    assert applying, f"no policy selects {target}"
    for policy in applying:
        for rule in policy["spec"].get("ingress", []):
            if not any(p["port"] == port for p in rule.get("ports", [])):
                continue
            for peer in rule.get("from", []):
                if source is None and "namespaceSelector" in peer:
                    names = peer["namespaceSelector"]["matchLabels"]
                    if names == {"kubernetes.io/metadata.name": "ingress-nginx"}:
                        return True
                inside = "podSelector" in peer and "namespaceSelector" not in peer
                pod = {"app.kubernetes.io/name": source or ""}
                if source is not None and inside and selects(peer["podSelector"], pod):
                    return True
    return False


def test_every_pod_is_denied_by_default() -> None:
    (deny,) = [p for p in policies() if p["metadata"]["name"] == "default-deny-ingress"]
    assert deny["spec"] == {"podSelector": {}, "policyTypes": ["Ingress"]}


def test_the_ingress_serves_the_gateway_over_tls() -> None:
    (ingress,) = [r for r in production() if r["kind"] == "Ingress"]
    (tls,) = ingress["spec"]["tls"]
    (rule,) = ingress["spec"]["rules"]
    assert rule["host"] in tls["hosts"] and tls["secretName"] == "photofinish-tls"
    (path,) = rule["http"]["paths"]
    assert path["path"] == "/" and path["backend"]["service"]["name"] == "gateway"
    assert not [r for r in production() if r["kind"] == "Secret"], "the certificate is not ours"


def test_no_service_but_through_the_ingress_is_exposed() -> None:
    for service in (r for r in production() if r["kind"] == "Service"):
        assert service["spec"].get("type", "ClusterIP") == "ClusterIP", service["metadata"]


@pytest.mark.parametrize("target", sorted(CALLERS))
def test_each_service_admits_its_callers_and_no_one_else(target: str) -> None:
    port, callers = CALLERS[target]
    for source in PODS:
        assert admitted(source, target, port) == (source in callers), (source, target, port)


def test_the_bot_pool_reaches_the_gateway_and_matchmaking_alone() -> None:
    reached = set()
    for target in PODS:
        ports = {CALLERS[target][0]} if target in CALLERS else set()
        ports |= {METRICS[target]} if target in METRICS else set()
        ports |= {6222} if target == "nats" else set()
        reached |= {(target, port) for port in ports if admitted("bots", target, port)}
    assert reached == {("gateway", 7100), ("matchmaking", 7103)}


@pytest.mark.parametrize("target", PODS)
def test_only_the_gateway_is_reachable_from_outside(target: str) -> None:
    ports = {CALLERS[target][0]} if target in CALLERS else set()
    ports |= {METRICS[target]} if target in METRICS else set()
    for port in ports:
        assert admitted(None, target, port) == ((target, port) == ("gateway", 7100)), port


@pytest.mark.parametrize("target", sorted(METRICS))
def test_only_prometheus_reads_a_services_metrics(target: str) -> None:
    for source in PODS:
        assert admitted(source, target, METRICS[target]) == (source == "prometheus"), source


def test_the_dev_overlay_has_no_policies_to_get_in_the_way() -> None:
    assert not [r for r in build(OVERLAYS[0]) if r["kind"] in {"NetworkPolicy", "Ingress"}]
