"""What the running Prometheus says: targets, loaded rules, alerts; and promtool's verdict."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import yaml

from tools.deploy import host
from tools.deploy.host import ROOT

RULES = ROOT / "deploy" / "prometheus" / "rules"


@dataclass(frozen=True, slots=True)
class Target:
    job: str
    instance: str
    health: str


@dataclass(frozen=True, slots=True)
class Alert:
    name: str
    state: str
    labels: dict[str, str]


def promtool_check(image: str) -> str:
    """Return ``promtool check rules`` on the project's rule files, run in ``image``.

    Raises:
        subprocess.CalledProcessError: when promtool finds a problem.
    """
    files = sorted(path.name for path in RULES.glob("*.yml"))
    done = subprocess.run(
        [
            "podman",
            "run",
            "--rm",
            "--pull=never",
            "--volume",
            f"{RULES}:/rules:ro",
            "--entrypoint",
            "promtool",
            image,
            "check",
            "rules",
            *(f"/rules/{name}" for name in files),
        ],
        env=host.environment(),
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def rule_names(paths: list[Path] | None = None) -> set[str]:
    """Return the name of every alert and recording rule in the project's rule files."""
    names = set()
    for path in paths or sorted(RULES.glob("*.yml")):
        for group in yaml.safe_load(path.read_text())["groups"]:
            names |= {rule.get("alert") or rule["record"] for rule in group["rules"]}
    return names


class Prometheus:
    """The HTTP API of one Prometheus server."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        self._http = http
        self._url = url.rstrip("/")

    async def _get(self, path: str) -> Any:
        async with self._http.get(f"{self._url}{path}") as response:
            response.raise_for_status()
            body = await response.json()
        return body["data"]

    async def targets(self) -> list[Target]:
        data = await self._get("/api/v1/targets?state=active")
        return [
            Target(t["labels"]["job"], t["labels"]["instance"], t["health"])
            for t in data["activeTargets"]
        ]

    async def loaded_rules(self) -> set[str]:
        data = await self._get("/api/v1/rules")
        return {rule["name"] for group in data["groups"] for rule in group["rules"]}

    async def alerts(self) -> list[Alert]:
        data = await self._get("/api/v1/alerts")
        return [
            Alert(a["labels"]["alertname"], a["state"], dict(a["labels"])) for a in data["alerts"]
        ]
