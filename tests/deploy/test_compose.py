"""docker-compose.yml: valid against the Compose Specification, and wired as documented."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import jsonschema
import pytest
import yaml

from services.common import callers
from services.gateway.ops import parse_targets
from services.stack import natsauth
from services.stack.stack import SERVICES
from tests.deploy.paths import COMPOSE, PROMETHEUS_CONFIGS, ROOT, SHARED_ENV
from tests.deploy.pins import nats_server_version
from tests.deploy.render import read_env_file
from tools.deploy import credentials

# The gRPC services: those on NATS, and accounts, which has none (the gateway alone calls it).
GRPC_SERVICES = (*SERVICES, "accounts")
APP = (*GRPC_SERVICES, "gateway", "bots")
# Each container of a service on NATS, and the NATS user and caller name it runs as.
INSTANCES = {**{name: name for name in SERVICES}, "arbitration-1": "arbitration"}
INSTANCES |= {"gateway": "gateway", "gateway-1": "gateway", "accounts": "accounts"}
# Each container of a service, and the caller name it runs as.
CALLER_OF = dict(INSTANCES)
GATEWAYS = ("gateway", "gateway-1")
NATS_NODES = ("nats", "nats-1", "nats-2")
# A variable the file must be given: ${NAME:?why}.
REQUIRED = re.compile(r"\$\{([A-Z0-9_]+):\?[^}]*\}")


def required(value: str) -> str:
    """Return the variable ``value`` is, when it is exactly one required ``${NAME:?…}``."""
    match = REQUIRED.fullmatch(value)
    assert match, value
    return match.group(1)


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def environment(name: str) -> dict[str, str]:
    """Return what service ``name`` runs with: its env_file, then its own environment."""
    service = compose()["services"][name]
    env_files = service.get("env_file", [])
    found: dict[str, str] = {}
    for path in [env_files] if isinstance(env_files, str) else env_files:
        found.update(read_env_file(COMPOSE.parent / path))
    found.update(service.get("environment") or {})
    return found


def compose_schema() -> dict[str, Any]:
    # The Compose Specification's schema as check-jsonschema vendors it (its LICENSE beside).
    vendor = resources.files("check_jsonschema.builtin_schemas.vendor")
    loaded: dict[str, Any] = json.loads((vendor / "compose-spec.json").read_text())
    return loaded


def test_the_file_is_valid_against_the_compose_specification() -> None:
    jsonschema.validate(compose(), compose_schema())


def test_a_broken_file_is_refused_by_the_schema() -> None:
    broken = compose()
    broken["services"]["rules"]["depends_on"] = {"nats": {"condition": "whenever"}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, compose_schema())


def test_every_process_runs_from_the_one_image() -> None:
    services = compose()["services"]
    for name in APP:
        assert services[name]["image"] == "${PF_IMAGE:-photofinish:latest}", name
        assert services[name]["build"] == {
            "context": ".",
            "dockerfile": "deploy/images/app/Dockerfile",
        }, name
        assert services[name]["command"][:2] == ["python", "-m"], name


def test_every_image_can_be_replaced_and_defaults_to_the_public_one() -> None:
    services = compose()["services"]
    assert services["nats"]["image"] == f"${{PF_NATS_IMAGE:-nats:{nats_server_version()}-alpine}}"
    assert services["postgres"]["image"] == "${PF_POSTGRES_IMAGE:-postgres:17}"
    assert services["prometheus"]["image"] == "${PF_PROMETHEUS_IMAGE:-prom/prometheus:v3.5.0}"


def test_every_service_has_a_health_check_and_waits_for_healthy_dependencies() -> None:
    services = compose()["services"]
    for name in (*GRPC_SERVICES, "gateway", "nats", "postgres", "prometheus"):
        assert services[name]["healthcheck"]["test"][0] == "CMD", name
    for name in APP:
        for dependency, condition in services[name]["depends_on"].items():
            assert condition == {"condition": "service_healthy"}, (name, dependency)
            assert "healthcheck" in services[dependency], dependency


def test_grpc_health_checks_probe_the_port_the_service_listens_on() -> None:
    services = compose()["services"]
    for name in GRPC_SERVICES:
        test = services[name]["healthcheck"]["test"]
        assert test[1:4] == ["python", "-m", "services.common.healthcheck"]
        assert test[4] == f"127.0.0.1:{environment(name)['PF_GRPC_PORT']}"


def test_nats_is_a_three_node_jetstream_cluster_that_answers_to_one_name() -> None:
    services = compose()["services"]
    nodes = {"nats": "nats-0", "nats-1": "nats-1", "nats-2": "nats-2"}
    for service, name in nodes.items():
        command = services[service]["command"]
        assert command[2:5] == ["-js", "-sd", "/data"], service
        assert command[command.index("--name") + 1] == name
        routes = command[command.index("--routes") + 1].split(",")
        assert routes == [f"nats://{n}:6222" for n in nodes.values()]
        assert f"{service}-data:/data" in services[service]["volumes"] or (
            service == "nats" and "nats-data:/data" in services[service]["volumes"]
        )
        # Clients dial `nats`; every node answers to it (node 0 by its service name).
        names = {service, *services[service]["x-aliases"]}
        assert {"nats", name} <= names, service


def test_two_arbitration_instances_and_two_gateways_share_the_settings() -> None:
    first, second = environment("arbitration"), environment("arbitration-1")
    assert (first["PF_INSTANCE"], second["PF_INSTANCE"]) == ("arbitration-0", "arbitration-1")
    assert (first["PF_ADVERTISE_HOST"], second["PF_ADVERTISE_HOST"]) == (
        "arbitration",
        "arbitration-1",
    )
    assert environment("gateway") == environment("gateway-1")
    scrape = yaml.safe_load(PROMETHEUS_CONFIGS[0].read_text())["scrape_configs"]
    targets = {job["job_name"]: job["static_configs"][0]["targets"] for job in scrape}
    assert targets["arbitration"] == ["arbitration:7202", "arbitration-1:7202"]
    assert targets["gateway"] == ["gateway:7205", "gateway-1:7205"]


def test_postgres_is_on_a_volume_and_ratings_tournaments_and_accounts_use_it() -> None:
    config = compose()
    assert "postgres-data" in config["volumes"]
    for name in ("ratings", "tournaments", "accounts"):
        url = environment(name)["DATABASE_URL"]
        assert url.startswith("postgresql://") and "@postgres:5432/" in url, name
        assert config["services"][name]["depends_on"]["postgres"] == {
            "condition": "service_healthy"
        }, name


def test_both_gateways_reach_accounts_and_wait_for_it_healthy() -> None:
    assert environment("accounts")["PF_GRPC_PORT"] == "7106"
    for name in GATEWAYS:
        assert environment(name)["PF_ACCOUNTS_ADDR"] == "accounts:7106", name
        depends_on = compose()["services"][name]["depends_on"]
        assert depends_on["accounts"] == {"condition": "service_healthy"}, name


def test_the_token_key_must_be_given_never_defaulted() -> None:
    key = environment("gateway")["PF_TOKEN_KEY"]
    assert key.startswith("${PF_TOKEN_KEY:?")


def test_the_gateways_serve_metrics_apart_and_ops_with_a_password_never_defaulted() -> None:
    for name in ("gateway", "gateway-1"):
        assert environment(name)["PF_OPS_PASSWORD"].startswith("${PF_OPS_PASSWORD:?"), name
        assert environment(name)["PF_METRICS_PORT"] == "7205", name
        published = compose()["services"][name]["ports"]
        assert [port.rsplit(":", 1)[1] for port in published] == ["7100"], name  # not 7205


def test_prometheus_and_the_ops_page_scrape_each_services_metrics_port() -> None:
    ports = {name: environment(name)["PF_METRICS_PORT"] for name in GRPC_SERVICES}
    scrape = yaml.safe_load(PROMETHEUS_CONFIGS[0].read_text())["scrape_configs"]
    targets = {job["job_name"]: job["static_configs"][0]["targets"] for job in scrape}
    assert targets["gateway"][0] == f"gateway:{environment('gateway')['PF_METRICS_PORT']}"
    ops = parse_targets(environment("gateway")["PF_METRICS_TARGETS"])
    assert {t.name: t.address for t in ops} == {n: f"{n}:{p}" for n, p in ports.items()}
    for name, port in ports.items():
        assert targets[name][0] == f"{name}:{port}"


def test_every_process_reads_the_settings_shared_with_kubernetes() -> None:
    shared = read_env_file(SHARED_ENV)
    for name in APP:
        assert compose()["services"][name]["env_file"] == "deploy/photofinish.env", name
        assert not set(shared) & set(compose()["services"][name].get("environment") or {}), name
    assert "NATS_URL" not in shared, "a NATS URL without a user is refused"
    assert environment("gateway")["PF_ARBITRATION_ADDR"] == "arbitration:7102"
    assert environment("bots")["PF_GATEWAY_URL"] == "http://gateway:7100"


def test_every_mounted_file_exists_in_the_repository() -> None:
    for name, service in compose()["services"].items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("./"):
                assert (ROOT / source).exists(), (name, source)


def test_every_nats_node_knows_the_users_of_the_committed_file() -> None:
    services = compose()["services"]
    for node in NATS_NODES:
        assert services[node]["command"][:2] == ["--config", "/etc/nats/authorization.conf"]
        mount = "./deploy/nats/authorization.conf:/etc/nats/authorization.conf:ro"
        assert mount in services[node]["volumes"], node
        passwords = {k: required(v) for k, v in services[node]["environment"].items()}
        assert passwords == {
            natsauth.password_variable(u): natsauth.password_variable(u) for u in natsauth.USERS
        }, node


def test_each_service_connects_to_nats_as_its_own_user_with_a_given_password() -> None:
    for name, user in INSTANCES.items():
        url = environment(name)["NATS_URL"]
        found = re.fullmatch(rf"nats://{user}:(\$\{{[^}}]+\}})@nats:4222", url)
        assert found, (name, url)
        assert required(found.group(1)) == natsauth.password_variable(user), name


def test_the_bot_pool_has_no_nats_and_holds_its_caller_token() -> None:
    env = environment("bots")
    assert "NATS_URL" not in env and not any("nats://" in value for value in env.values())
    assert not [key for key in env if key.startswith("PF_NATS_PASSWORD")], env
    assert required(env["PF_CALLER_TOKEN"]) == credentials.caller_token_variable("bots")
    assert env["PF_MATCHMAKING_ADDR"] == "matchmaking:7103"


def test_accounts_starts_without_waiting_for_nats() -> None:
    # It signs players in while NATS is away, and tells of deleted accounts when it is back.
    assert "nats" not in compose()["services"]["accounts"]["depends_on"]


def test_no_service_runs_without_its_callers_and_each_caller_has_its_token() -> None:
    for name, service in CALLER_OF.items():
        env = environment(name)
        if service in callers.ACCEPTED:
            assert required(env["PF_CALLERS"]) == credentials.callers_variable(service), name
        else:
            assert "PF_CALLERS" not in env, name
        if service in callers.CALLERS:
            token = required(env["PF_CALLER_TOKEN"])
            assert token == credentials.caller_token_variable(service), name
        else:
            assert "PF_CALLER_TOKEN" not in env, name
    assert set(callers.ACCEPTED) <= set(CALLER_OF.values())


def test_every_secret_the_file_requires_is_one_the_credentials_tool_makes() -> None:
    wanted = set(REQUIRED.findall(COMPOSE.read_text()))
    made = credentials.Credentials.new().compose_env()
    assert wanted <= set(made), wanted - set(made)
    assert {"PF_TOKEN_KEY", "PF_NATS_PASSWORD_OPERATOR", "PF_CALLERS_RATINGS"} <= wanted
    assert "PF_CALLERS_ACCOUNTS" in wanted
