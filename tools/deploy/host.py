"""The host the deployment runs on: the packages it needs, podman with the project's settings."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTAINERS_CONF = ROOT / "deploy" / "podman" / "containers.conf"
WORK = ROOT / "var" / "deploy"
# Debian packages: podman with runc (crun refuses some cgroup layouts), netavark and
# aardvark-dns (containers find each other by service name), podman-compose, mmdebstrap.
PACKAGES = (
    "podman",
    "runc",
    "netavark",
    "aardvark-dns",
    "uidmap",
    "slirp4netns",
    "fuse-overlayfs",
    "podman-compose",
    "mmdebstrap",
)
# Where a build finds the host's CA bundle; mounted for the build only, never copied.
BUILD_CA = "/run/build-secrets/ca.crt"


def missing_packages() -> list[str]:
    """Return the packages of PACKAGES that dpkg does not list as installed."""
    missing = []
    for package in PACKAGES:
        status = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", package],
            capture_output=True,
            text=True,
            check=False,
        )
        if "install ok installed" not in status.stdout:
            missing.append(package)
    return missing


def install_packages() -> list[str]:
    """Install what is missing with apt-get (updating the lists once if needed); return it.

    Raises:
        subprocess.CalledProcessError: when apt-get fails even after an update.
    """
    missing = missing_packages()
    if not missing:
        return []
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", *missing]
    if subprocess.run(install, env=env, check=False).returncode != 0:
        subprocess.run(["apt-get", "update"], env=env, check=True)
        subprocess.run(install, env=env, check=True)
    return missing


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


def require(command: str) -> str:
    """Return the path of ``command``.

    Raises:
        FileNotFoundError: when it is not on PATH.
    """
    found = shutil.which(command)
    if found is None:
        raise FileNotFoundError(f"{command} is not installed")
    return found
