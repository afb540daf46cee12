"""k8s/: every overlay, rendered by kubectl kustomize, is valid against the Kubernetes schemas."""

from __future__ import annotations

import base64
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from kubernetes_validate import utils as kubernetes

from services.common import callers
from services.stack import natsauth
from services.stack.stack import SERVICES
from tests.deploy.paths import DEPLOY, K8S, OVERLAYS, SHARED_ENV
from tests.deploy.pins import nats_server_version
from tests.deploy.render import RenderError, Resource, build, containers, read_env_file
from tools.deploy import credentials

# The oldest release the manifests are written for (autoscaling/v2, policy/v1, grpc probes).
KUBERNETES_VERSION = "1.30"
GRPC_PORTS = {
    "rules": 7101,
    "arbitration": 7102,
    "matchmaking": 7103,
    "ratings": 7104,
    "tournaments": 7105,
    "accounts": 7106,
}
# The gRPC services: those on NATS, and accounts, which has none (the gateway alone calls it).
GRPC_SERVICES = (*SERVICES, "accounts")


def render(overlay: Path) -> list[Resource]:
    return build(overlay)


def named(resources: list[Resource], kind: str, name: str) -> Resource:
    for resource in resources:
        if resource["kind"] == kind and resource["metadata"]["name"] == name:
            return resource
    raise AssertionError(f"no {kind}/{name}")


def workloads(resources: list[Resource]) -> list[Resource]:
    return [r for r in resources if r["kind"] in {"Deployment", "StatefulSet"}]


def test_there_are_dev_and_production_overlays() -> None:
    assert [overlay.name for overlay in OVERLAYS] == ["dev", "production"]


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_every_rendered_resource_is_valid_against_the_kubernetes_schemas(overlay: Path) -> None:
    resources = render(overlay)
    assert len(resources) > 30
    for resource in resources:
        kubernetes.validate(resource, KUBERNETES_VERSION, strict=True)
    names = Counter((r["kind"], r["metadata"]["name"]) for r in resources)
    assert max(names.values()) == 1, "a resource is defined twice"


def test_an_invalid_manifest_is_refused_by_the_schema_validator() -> None:
    broken = named(render(OVERLAYS[0]), "Deployment", "rules")
    broken["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes.ValidationError):
        kubernetes.validate(broken, KUBERNETES_VERSION, strict=True)


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_every_container_has_requests_and_limits(overlay: Path) -> None:
    for workload in workloads(render(overlay)):
        for container in containers(workload):
            resources = container["resources"]
            assert {"cpu", "memory"} <= set(resources["requests"]), workload["metadata"]["name"]
            assert {"cpu", "memory"} <= set(resources["limits"]), workload["metadata"]["name"]


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_services_are_probed_on_grpc_health_and_the_gateway_on_http(overlay: Path) -> None:
    resources = render(overlay)
    for name, port in GRPC_PORTS.items():
        container = containers(named(resources, _kind(name), name))[0]
        for probe in ("readinessProbe", "livenessProbe"):
            assert container[probe]["grpc"] == {"port": port}, (name, probe)
    gateway = containers(named(resources, "Deployment", "gateway"))[0]
    assert gateway["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert gateway["readinessProbe"]["httpGet"]["path"] == "/readyz"


def _kind(name: str) -> str:
    return "StatefulSet" if name == "arbitration" else "Deployment"


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_gateway_and_rules_autoscale_and_keep_a_replica_through_disruptions(
    overlay: Path,
) -> None:
    resources = render(overlay)
    for name in ("gateway", "rules"):
        hpa = named(resources, "HorizontalPodAutoscaler", name)
        assert hpa["spec"]["scaleTargetRef"] == {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "name": name,
        }
        named(resources, "PodDisruptionBudget", name)
    named(resources, "PodDisruptionBudget", "nats")
    named(resources, "PodDisruptionBudget", "arbitration")


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_matchmaking_is_one_replica_never_two(overlay: Path) -> None:
    matchmaking = named(render(overlay), "Deployment", "matchmaking")
    assert matchmaking["spec"]["replicas"] == 1
    assert matchmaking["spec"]["strategy"] == {"type": "Recreate"}


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_arbitration_instances_are_named_after_their_pods(overlay: Path) -> None:
    arbitration = named(render(overlay), "StatefulSet", "arbitration")
    env = {e["name"]: e for e in containers(arbitration)[0]["env"]}
    assert env["PF_INSTANCE"]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"
    assert env["PF_ADVERTISE_HOST"]["value"] == "$(PF_INSTANCE).arbitration-headless"


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_the_token_key_and_database_url_come_from_the_secret(overlay: Path) -> None:
    resources = render(overlay)
    gateway = {
        e["name"]: e for e in containers(named(resources, "Deployment", "gateway"))[0]["env"]
    }
    assert gateway["PF_TOKEN_KEY"]["valueFrom"]["secretKeyRef"] == {
        "name": "photofinish-secrets",
        "key": "token-key",
    }
    for name in ("ratings", "tournaments", "accounts"):
        env = {e["name"]: e for e in containers(named(resources, "Deployment", name))[0]["env"]}
        assert env["DATABASE_URL"]["valueFrom"]["secretKeyRef"]["key"] == "database-url", name
    config = named(resources, "ConfigMap", "photofinish-config")
    assert not any("KEY" in key or "PASSWORD" in key for key in config["data"])


def test_production_brings_no_secret_of_its_own_and_dev_brings_throwaway_ones() -> None:
    dev, production = (render(overlay) for overlay in OVERLAYS)
    assert not [r for r in production if r["kind"] == "Secret"]
    secret = named(dev, "Secret", "photofinish-secrets")
    assert set(secret["data"]) == set(credentials.Credentials.new().secret_data())


def test_the_dev_secrets_callers_accept_its_caller_tokens() -> None:
    data = {
        key: base64.b64decode(value).decode()
        for key, value in named(render(OVERLAYS[0]), "Secret", "photofinish-secrets")[
            "data"
        ].items()
    }
    tokens = {name: data[credentials.caller_token_key(name)] for name in callers.CALLERS}
    for service, accepted in callers.accepted(tokens).items():
        assert data[credentials.callers_key(service)] == accepted, service


def env_of(resources: list[Resource], name: str) -> dict[str, dict[str, Any]]:
    """Return the first container's ``env`` of workload ``name``, by variable."""
    kind = "StatefulSet" if name in {"arbitration", "nats"} else "Deployment"
    return {e["name"]: e for e in containers(named(resources, kind, name))[0].get("env", [])}


def from_secret(variable: dict[str, Any]) -> str:
    """Return the key of photofinish-secrets a variable is read from."""
    ref = variable["valueFrom"]["secretKeyRef"]
    assert ref["name"] == "photofinish-secrets", ref
    key: str = ref["key"]
    return key


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_each_service_connects_to_nats_as_its_own_user_with_a_secret_password(
    overlay: Path,
) -> None:
    resources = render(overlay)
    for name in (*SERVICES, "gateway", "accounts"):
        env = env_of(resources, name)
        assert from_secret(env["PF_NATS_PASSWORD"]) == credentials.nats_password_key(name)
        assert env["NATS_URL"]["value"] == f"nats://{name}:$(PF_NATS_PASSWORD)@nats:4222"
        # $(VAR) is expanded from the variables listed before it.
        assert list(env).index("PF_NATS_PASSWORD") < list(env).index("NATS_URL"), name
    config = named(resources, "ConfigMap", "photofinish-config")["data"]
    assert "NATS_URL" not in config


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_accounts_runs_one_replica(overlay: Path) -> None:
    resources = render(overlay)
    env = env_of(resources, "accounts")
    assert set(env) == {
        "PF_GRPC_PORT",
        "PF_METRICS_PORT",
        "PF_NATS_PASSWORD",  # to tell of deleted accounts (services/accounts/outbox.py)
        "NATS_URL",
        "PF_CALLERS",
        "DATABASE_URL",
    }
    # The failed sign-ins it slows down are counted in its memory.
    assert named(resources, "Deployment", "accounts")["spec"]["replicas"] == 1


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_no_service_runs_without_its_callers_and_each_caller_has_its_token(
    overlay: Path,
) -> None:
    resources = render(overlay)
    for name in (*GRPC_SERVICES, "gateway", "bots"):
        env = env_of(resources, name)
        if name in callers.ACCEPTED:
            assert from_secret(env["PF_CALLERS"]) == credentials.callers_key(name)
        else:
            assert "PF_CALLERS" not in env, name
        if name in callers.CALLERS:
            assert from_secret(env["PF_CALLER_TOKEN"]) == credentials.caller_token_key(name)
        else:
            assert "PF_CALLER_TOKEN" not in env, name


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_the_bot_pool_has_no_nats(overlay: Path) -> None:
    env = env_of(render(overlay), "bots")
    assert set(env) == {"PF_CALLER_TOKEN"}


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_nats_knows_every_user_with_its_password_from_the_secret(overlay: Path) -> None:
    resources = render(overlay)
    conf = named(resources, "ConfigMap", "nats-config")["data"]
    assert conf["authorization.conf"] == (DEPLOY / "nats/authorization.conf").read_text()
    assert "\ninclude ./authorization.conf\n" in conf["nats.conf"]
    env = env_of(resources, "nats")
    for user in natsauth.USERS:
        variable = env[natsauth.password_variable(user)]
        assert from_secret(variable) == credentials.nats_password_key(user), user


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_every_secret_key_read_is_one_the_credentials_tool_makes(overlay: Path) -> None:
    made = set(credentials.Credentials.new().secret_data())
    for workload in workloads(render(overlay)):
        for container in containers(workload):
            for variable in container.get("env", []):
                if "secretKeyRef" in variable.get("valueFrom", {}):
                    assert from_secret(variable) in made, (workload["metadata"], variable)


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_nats_is_a_three_node_jetstream_cluster_of_the_official_image(overlay: Path) -> None:
    resources = render(overlay)
    nats = named(resources, "StatefulSet", "nats")
    assert nats["spec"]["replicas"] == 3
    assert containers(nats)[0]["image"] == f"nats:{nats_server_version()}-alpine"
    assert nats["spec"]["serviceName"] == "nats-headless"
    conf = named(resources, "ConfigMap", "nats-config")["data"]["nats.conf"]
    routes = re.findall(r"nats://(nats-\d)\.nats-headless:6222", conf)
    assert routes == ["nats-0", "nats-1", "nats-2"]
    assert "jetstream" in conf and "store_dir: /data" in conf


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_every_service_pod_is_scraped_on_its_metrics_port(overlay: Path) -> None:
    resources = render(overlay)
    for name in (*GRPC_SERVICES, "gateway"):
        pod = named(resources, _kind(name), name)["spec"]["template"]
        annotations = pod["metadata"]["annotations"]
        ports = {
            p["containerPort"] for p in containers(named(resources, _kind(name), name))[0]["ports"]
        }
        assert annotations["prometheus.io/scrape"] == "true"
        assert int(annotations["prometheus.io/port"]) in ports
        assert pod["metadata"]["labels"]["app.kubernetes.io/name"] == name  # the job name


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_every_service_selects_pods_that_exist(overlay: Path) -> None:
    resources = render(overlay)
    pods = [w["spec"]["template"]["metadata"]["labels"] for w in workloads(resources)]
    for service in (r for r in resources if r["kind"] == "Service"):
        selector: dict[str, Any] = service["spec"]["selector"]
        assert any(selector.items() <= labels.items() for labels in pods), service["metadata"]


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_every_process_reads_the_settings_compose_reads(overlay: Path) -> None:
    resources = render(overlay)
    config = named(resources, "ConfigMap", "photofinish-config")
    assert config["data"] == read_env_file(SHARED_ENV)
    assert config["data"]["PF_ARBITRATION_ADDR"] == "arbitration:7102"
    assert config["data"]["PF_ACCOUNTS_ADDR"] == "accounts:7106"  # the gateway's way to it
    for name in (*GRPC_SERVICES, "gateway", "bots"):
        kind = _kind(name)
        (source,) = containers(named(resources, kind, name))[0]["envFrom"]
        assert source == {"configMapRef": {"name": "photofinish-config"}}, name


def test_an_env_file_line_that_is_not_key_equals_value_is_refused(tmp_path: Path) -> None:
    (tmp_path / "ok.env").write_text("# note\n\n  A=1=2\nB=\n")
    assert read_env_file(tmp_path / "ok.env") == {"A": "1=2", "B": ""}
    for bad in ("FROM_THE_ENVIRONMENT\n", "NOT-A-NAME=1\n"):
        (tmp_path / "bad.env").write_text(bad)
        with pytest.raises(ValueError):
            read_env_file(tmp_path / "bad.env")


def test_a_kustomization_kubectl_cannot_render_fails_the_render(tmp_path: Path) -> None:
    (tmp_path / "kustomization.yaml").write_text("resources:\n  - missing.yaml\n")
    with pytest.raises(RenderError, match=r"missing\.yaml"):
        render(tmp_path)


def test_prometheus_and_grafana_mount_the_shared_deploy_configuration() -> None:
    resources = render(OVERLAYS[1])
    rules = named(resources, "ConfigMap", "prometheus-rules")["data"]
    assert (
        rules["photofinish.yml"]
        == (K8S.parent / "deploy/prometheus/rules/photofinish.yml").read_text()
    )
    dashboards = named(resources, "ConfigMap", "grafana-dashboards")["data"]
    assert "photofinish.json" in dashboards


def test_overlays_render_into_their_own_namespace_with_the_image_they_name() -> None:
    dev, production = (render(overlay) for overlay in OVERLAYS)
    assert {r["metadata"].get("namespace") for r in dev if r["kind"] != "Namespace"} == {
        "photofinish-dev"
    }
    gateway = containers(named(production, "Deployment", "gateway"))[0]
    assert gateway["image"] == "registry.example.com/photofinish:0.1.0"
    binding = named(production, "RoleBinding", "prometheus")
    assert binding["subjects"][0]["namespace"] == "photofinish"


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_gateway_and_arbitration_share_a_node_so_their_clocks_compare(overlay: Path) -> None:
    resources = render(overlay)
    for kind, name in (("Deployment", "gateway"), ("StatefulSet", "arbitration")):
        pod = named(resources, kind, name)["spec"]["template"]["spec"]
        (term,) = pod["affinity"]["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        assert term["topologyKey"] == "kubernetes.io/hostname"
        assert term["labelSelector"]["matchLabels"] == {"app.kubernetes.io/name": "arbitration"}
