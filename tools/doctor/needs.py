"""Every tool the tests (and the install) need, how to tell it is there, the Debian package.

A fresh machine of the kind this project runs on lacks several of them (its package list:
the machine's description, ``installed-python.txt``), so each names where it comes from.
Standard library only: the doctor runs before the virtual environment exists.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from urllib.parse import urlsplit


class Stage(Enum):
    """The stages of `make test` (tools/suite.py), by what they need of the machine; and
    ``build``, what `make install` needs to build the locked packages PyPI has no wheel of."""

    SETUP = "setup"
    BUILD = "build"
    UNIT = "unit"
    BROWSER = "browser"
    DEPLOY = "deploy"


@dataclass(frozen=True, slots=True)
class Finding:
    """Whether a tool is usable, and what was seen (a version, a path, why not)."""

    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class Need:
    """One tool: its name, what checks it, the package that provides it, who needs it.

    ``package`` is a Debian package apt-get installs; ``remedy`` names what else to do when
    no package can bring it (a service the machine itself runs, say).
    """

    name: str
    probe: Callable[[], Finding]
    stages: tuple[Stage, ...]
    package: str | None = None
    remedy: str = ""
    start: Callable[[], str] | None = None


def program(command: str) -> Callable[[], Finding]:
    """Probe: ``command`` is on PATH."""

    def probe() -> Finding:
        found = shutil.which(command)
        return Finding(found is not None, found or f"{command} not on PATH")

    return probe


def font(family: str, language: str) -> Callable[[], Finding]:
    """Probe: fontconfig knows ``family`` and it covers ``language`` (ISO 639), so the
    browser draws that language's letters, the same on every machine, not boxes."""

    def probe() -> Finding:
        if shutil.which("fc-list") is None:
            return Finding(False, "fc-list (fontconfig) not on PATH")
        pattern = f":family={family}:lang={language}"
        command = ["fc-list", "--format", "%{file}\n", pattern]
        listed = subprocess.run(command, capture_output=True, text=True, check=False)
        files = sorted(line for line in listed.stdout.splitlines() if line)
        return Finding(bool(files), files[0] if files else f"no font matches {pattern}")

    return probe


def file(path: str) -> Callable[[], Finding]:
    """Probe: an executable at ``path`` (helpers that live off PATH, like netavark)."""

    def probe() -> Finding:
        ok = os.access(path, os.X_OK)
        return Finding(ok, path if ok else f"{path} missing")

    return probe


def version_at_least(command: str, minimum: tuple[int, ...]) -> Callable[[], Finding]:
    """Probe: ``command --version`` prints a version no older than ``minimum``."""

    def probe() -> Finding:
        if shutil.which(command) is None:
            return Finding(False, f"{command} not on PATH")
        done = subprocess.run([command, "--version"], capture_output=True, text=True, check=False)
        match = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", done.stdout + done.stderr)
        if match is None:
            return Finding(False, f"{command} --version printed no version")
        seen = tuple(int(part or 0) for part in match.groups())
        wanted = ".".join(map(str, minimum))
        if seen < minimum:
            return Finding(False, f"{match.group(0)}, older than {wanted}")
        return Finding(True, match.group(0))

    return probe


def python_with_venv() -> Finding:
    """Probe: this Python is 3.11 or newer and can make a virtual environment with pip."""
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info < (3, 11):  # noqa: UP036 (the machine's python3, before any venv)
        return Finding(False, f"Python {version}, older than 3.11")
    for module in ("venv", "ensurepip"):
        try:
            __import__(module)
        except ImportError:
            return Finding(False, f"Python {version} without {module}")
    return Finding(True, f"Python {version}")


def pkg_config_module(module: str) -> Callable[[], Finding]:
    """Probe: pkg-config knows ``module`` (its headers and libraries are installed)."""

    def probe() -> Finding:
        if shutil.which("pkg-config") is None:
            return Finding(False, "pkg-config not on PATH")
        done = subprocess.run(
            ["pkg-config", "--modversion", module], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            return Finding(False, f"pkg-config knows no {module}")
        return Finding(True, f"{module} {done.stdout.strip()}")

    return probe


def python_headers() -> Finding:
    """Probe: this Python's Python.h, which a C or C++ extension is compiled against."""
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return Finding(header.is_file(), str(header) if header.is_file() else f"{header} missing")


POSTGRES_URL = os.environ.get("PF_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


def postgres_answers() -> Finding:
    """Probe: something accepts connections where the tests' PostgreSQL should be."""
    address = urlsplit(POSTGRES_URL)
    host, port = address.hostname or "127.0.0.1", address.port or 5432
    try:
        socket.create_connection((host, port), timeout=3).close()
    except OSError as error:
        return Finding(False, f"nothing answers at {host}:{port} ({error.strerror or error})")
    return Finding(True, f"{host}:{port}")


def start_postgres() -> str:
    """Start this machine's PostgreSQL clusters; return what went wrong, or ''."""
    if shutil.which("pg_lsclusters") is None:
        return "PostgreSQL is not installed here (postgresql-common's pg_lsclusters missing)"
    listed = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, check=False)
    problems = []
    for line in listed.stdout.splitlines():
        version, cluster, *_ = line.split()
        done = subprocess.run(
            ["pg_ctlcluster", "--skip-systemctl-redirect", version, cluster, "start"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode not in (0, 2):  # 2: already running
            problems.append(done.stderr.strip() or f"pg_ctlcluster {version} {cluster} failed")
    return "; ".join(problems) if listed.stdout.strip() else "no PostgreSQL cluster is set up"


PODMAN_HELPERS = Path("/usr/lib/podman")
UNIT, BROWSER, DEPLOY, SETUP = Stage.UNIT, Stage.BROWSER, Stage.DEPLOY, Stage.SETUP
BUILD = Stage.BUILD

NEEDS: tuple[Need, ...] = (
    Need("python3 ≥ 3.11 with venv", python_with_venv, (SETUP,), remedy="CPython 3.11+"),
    # 18: Debian 12's, which builds the client in the image (the Dockerfile's web stage).
    Need("node ≥ 18", version_at_least("node", (18,)), (SETUP, BROWSER), "nodejs"),
    Need("npm", program("npm"), (SETUP, BROWSER), "nodejs"),
    # PyICU (requirements/*.lock) is only a source distribution: make install compiles it,
    # C++ against ICU's headers, found with pkg-config.
    Need("g++", program("g++"), (BUILD,), "g++"),
    Need("Python.h", python_headers, (BUILD,), "python3-dev"),
    Need("pkg-config", program("pkg-config"), (BUILD,), "pkg-config"),
    Need("ICU headers (icu-i18n)", pkg_config_module("icu-i18n"), (BUILD,), "libicu-dev"),
    Need(
        "PostgreSQL (tests)",
        postgres_answers,
        (UNIT,),
        remedy="this machine's server (PF_TEST_POSTGRES_URL)",
        start=start_postgres,
    ),
    Need("kubectl", program("kubectl"), (UNIT,), "kubectl"),
    Need("promtool", program("promtool"), (UNIT,), "prometheus"),
    Need("chromium", file("/usr/bin/chromium"), (BROWSER,), "chromium"),
    # The page in Arabic and Korean: screenshots show their letters, not boxes.
    Need("Noto Sans Arabic", font("Noto Sans Arabic", "ar"), (BROWSER,), "fonts-noto-core"),
    Need("Noto Sans CJK KR", font("Noto Sans CJK KR", "ko"), (BROWSER,), "fonts-noto-cjk"),
    Need("podman", program("podman"), (DEPLOY,), "podman"),
    Need("runc", program("runc"), (DEPLOY,), "runc"),
    Need("netavark", file(f"{PODMAN_HELPERS}/netavark"), (DEPLOY,), "netavark"),
    Need("aardvark-dns", file(f"{PODMAN_HELPERS}/aardvark-dns"), (DEPLOY,), "aardvark-dns"),
    Need("iptables", program("iptables"), (DEPLOY,), "iptables"),
    Need("newuidmap", program("newuidmap"), (DEPLOY,), "uidmap"),
    Need("slirp4netns", program("slirp4netns"), (DEPLOY,), "slirp4netns"),
    Need("fuse-overlayfs", program("fuse-overlayfs"), (DEPLOY,), "fuse-overlayfs"),
    Need("podman-compose", program("podman-compose"), (DEPLOY,), "podman-compose"),
    Need("mmdebstrap", program("mmdebstrap"), (DEPLOY,), "mmdebstrap"),
)
