"""The compose deployment under podman-compose: create, start in order, probe, tear down."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from tools.deploy import host
from tools.deploy.host import ROOT

COMPOSE_FILE = ROOT / "docker-compose.yml"
PROJECT = "pfdeploy"
NETWORK = f"{PROJECT}_default"
# Grafana's image cannot be built from Debian's packages; everything else runs.
LEFT_OUT = ("grafana",)
PROJECT_LABEL = f"io.podman.compose.project={PROJECT}"


class Unhealthy(RuntimeError):
    """A container did not pass its health check in time."""


def services() -> list[str]:
    """Return the services of docker-compose.yml that run here, in the file's order."""
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE_FILE.read_text())
    return [name for name in loaded["services"] if name not in LEFT_OUT]


def aliases() -> dict[str, list[str]]:
    """Return the further names each service answers to on the default network (x-aliases)."""
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE_FILE.read_text())
    return {
        name: list(service["x-aliases"])
        for name, service in loaded["services"].items()
        if service.get("x-aliases")
    }


@dataclass(slots=True)
class Deployment:
    """One run of docker-compose.yml: the environment it is given, its containers by service."""

    env: Mapping[str, str]
    containers: dict[str, str]

    @classmethod
    def create(cls, env: Mapping[str, str]) -> Deployment:
        """Create every container (started later, in order), with its network aliases.

        The network comes first, so the gateways can be told the address the host's
        connections arrive from (the load test's players all sign in from it).

        Raises:
            subprocess.CalledProcessError: when podman-compose fails.
        """
        labels = ["--label", PROJECT_LABEL, "--label", f"com.docker.compose.project={PROJECT}"]
        host.podman("network", "create", *labels, NETWORK)
        found = json.loads(host.podman("network", "inspect", NETWORK))
        gateway = found[0]["subnets"][0]["gateway"]
        env = {**env, "PF_STREAMS_UNLIMITED_ADDRESSES": f"127.0.0.1,::1,{gateway}"}
        said = cls.compose(env, "up", "--no-start", "--no-build", *services())
        deployment = cls(env, _containers())
        missing = set(services()) - set(deployment.containers)
        if missing:
            raise RuntimeError(f"podman-compose created no {sorted(missing)}:\n{said[-3000:]}")
        deployment._add_aliases()
        return deployment

    @staticmethod
    def compose(env: Mapping[str, str], *args: str) -> str:
        """Run podman-compose on docker-compose.yml as project PROJECT; return what it said.

        Raises:
            subprocess.CalledProcessError: when it fails.
        """
        command = ["podman-compose", "-p", PROJECT, "-f", str(COMPOSE_FILE), *args]
        done = subprocess.run(
            command,
            env=host.environment(dict(env)),
            cwd=ROOT,
            check=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        return done.stdout

    def _add_aliases(self) -> None:
        # podman-compose 1.0 gives a container only its service's name; the further names
        # the file lists (three NATS nodes answering to `nats`) are set here, before start.
        for service, names in aliases().items():
            container = self.containers[service]
            host.podman("network", "disconnect", NETWORK, container)
            flags = [f"--alias={name}" for name in (service, *names)]
            host.podman("network", "connect", *flags, NETWORK, container)

    def start(self, *names: str) -> None:
        """Start the containers of services ``names``."""
        host.podman("start", *(self.containers[name] for name in names))

    def kill(self, name: str) -> None:
        """Kill service ``name``'s container (SIGKILL), as a crash would."""
        host.podman("kill", "--signal", "KILL", self.containers[name])

    def is_healthy(self, name: str) -> bool:
        """Return whether service ``name``'s health check passes now (no check: running)."""
        container = self.containers[name]
        if not host.podman("inspect", "--format", "{{.Config.Healthcheck}}", container).strip(
            "<nil>\n "
        ):
            state = host.podman("inspect", "--format", "{{.State.Running}}", container)
            return state.strip() == "true"
        done = subprocess.run(
            ["podman", "healthcheck", "run", container],
            env=host.environment(),
            capture_output=True,
            check=False,
            timeout=30,
        )
        return done.returncode == 0

    def wait_healthy(self, names: Iterable[str], timeout_s: float = 180.0) -> float:
        """Wait until every service in ``names`` is healthy; return the seconds it took.

        Raises:
            Unhealthy: naming those still unhealthy after ``timeout_s``.
        """
        started = time.monotonic()
        waiting = list(names)
        while waiting:
            waiting = [name for name in waiting if not self.is_healthy(name)]
            if waiting and time.monotonic() - started > timeout_s:
                raise Unhealthy(f"not healthy after {timeout_s:.0f} s: {', '.join(waiting)}")
            if waiting:
                time.sleep(1.0)
        return time.monotonic() - started

    def run_in(
        self, name: str, command: list[str], env: Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Run ``command`` in service ``name``'s running container, with no input; return
        what it said and its exit status."""
        variables = [f"--env={key}={value}" for key, value in (env or {}).items()]
        return subprocess.run(
            ["podman", "exec", *variables, self.containers[name], *command],
            env=host.environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
            timeout=60,
        )

    def logs(self, name: str, tail: int = 40) -> str:
        """Return the last ``tail`` lines service ``name`` wrote."""
        done = subprocess.run(
            ["podman", "logs", "--tail", str(tail), self.containers[name]],
            env=host.environment(),
            capture_output=True,
            text=True,
            check=False,
        )
        return done.stdout + done.stderr

    def state(self, name: str) -> dict[str, Any]:
        """Return service ``name``'s container state as podman inspect gives it."""
        found: list[dict[str, Any]] = json.loads(host.podman("inspect", self.containers[name]))
        state: dict[str, Any] = found[0]["State"]
        return state


def _containers() -> dict[str, str]:
    listed = json.loads(
        host.podman("ps", "-a", "--filter", f"label={PROJECT_LABEL}", "--format", "json")
    )
    return {item["Labels"]["com.docker.compose.service"]: item["Names"][0] for item in listed}


def tear_down() -> list[str]:
    """Remove the project's containers, volumes and networks, whatever state they are in.

    Returns what could not be removed (empty when all went).
    """
    left = []
    for kind, listing in (
        ("container", ["ps", "-a", "--filter", f"label={PROJECT_LABEL}", "--format", "{{.ID}}"]),
        ("volume", ["volume", "ls", "--filter", f"label={PROJECT_LABEL}", "--format", "{{.Name}}"]),
        (
            "network",
            ["network", "ls", "--filter", f"label={PROJECT_LABEL}", "--format", "{{.Name}}"],
        ),
    ):
        for item in host.podman(*listing, check=False).split():
            remove = ["rm", "-f", "-t", "2"] if kind == "container" else [kind, "rm", "-f"]
            done = subprocess.run(
                ["podman", *remove, item],
                env=host.environment(),
                capture_output=True,
                check=False,
            )
            if done.returncode != 0:
                left.append(f"{kind} {item}")
    return left
