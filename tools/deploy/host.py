"""The host the deployment runs on: podman with the project's settings, the build's secrets."""

from __future__ import annotations

import os
import ssl
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTAINERS_CONF = ROOT / "deploy" / "podman" / "containers.conf"
WORK = ROOT / "var" / "deploy"
# Where a build finds the host's CA bundle; mounted for the build only, never copied.
BUILD_CA = "/run/build-secrets/ca.crt"


def environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """Return the environment podman runs in: the project's containers.conf, and ``extra``."""
    return {**os.environ, "CONTAINERS_CONF": str(CONTAINERS_CONF), **(extra or {})}


def podman(*args: str, check: bool = True, timeout: float | None = None) -> str:
    """Run ``podman ARGS`` and return its standard output.

    Raises:
        subprocess.CalledProcessError: when it fails and ``check`` is set.
    """
    done = subprocess.run(
        ["podman", *args],
        env=environment(),
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )
    if check and done.returncode != 0:
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)
    return done.stdout


def ca_bundle() -> Path | None:
    """Return the CA bundle this host's pip and npm trust, if there is one."""
    candidates = [
        os.environ.get(name, "")
        for name in ("PIP_CERT", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS")
    ]
    candidates.append(ssl.get_default_verify_paths().cafile or "")
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def build_secrets() -> list[str]:
    """Return podman build flags giving a build the host's CA bundle and pip index.

    The bundle is a build-time mount and the settings build args: neither reaches a layer.
    """
    flags: list[str] = []
    bundle = ca_bundle()
    if bundle is not None:
        flags += ["--volume", f"{bundle}:{BUILD_CA}:ro"]
        flags += ["--build-arg", f"PIP_CERT={BUILD_CA}"]
        flags += ["--build-arg", f"NODE_EXTRA_CA_CERTS={BUILD_CA}"]
    index = os.environ.get("PIP_INDEX_URL", "")
    if index and not index.startswith("file:"):
        flags += ["--build-arg", f"PIP_INDEX_URL={index}"]
    return flags
