"""Debian packages: which are installed, and installing the missing ones in one go.

Standard library only: the doctor runs before the virtual environment exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence


def is_installed(package: str) -> bool:
    """Return whether dpkg lists ``package`` as installed."""
    if shutil.which("dpkg-query") is None:
        return False
    status = subprocess.run(
        ["dpkg-query", "-W", "-f=${Status}", package],
        capture_output=True,
        text=True,
        check=False,
    )
    return "install ok installed" in status.stdout


def install(packages: Sequence[str], refresh: bool = True) -> str:
    """Install ``packages`` with apt-get; if that fails and ``refresh``, read the package lists
    again (they may be stale or absent on a new machine) and try once more. Return apt's
    reason when it could not, else ''.

    Recommended packages are left out: the tools are wanted, not their desktop companions.
    """
    if not packages:
        return ""
    if shutil.which("apt-get") is None:
        return "apt-get is not on this machine"
    if os.geteuid() != 0:
        return "installing Debian packages needs root"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    command = ["apt-get", "install", "-y", "--no-install-recommends", *packages]
    done = _run(command, env)
    if done.returncode != 0 and refresh:
        _run(["apt-get", "update"], env)
        done = _run(command, env)
    return _last_error(done.stdout + done.stderr) if done.returncode != 0 else ""


def _run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False)


def _last_error(output: str) -> str:
    """Return apt's own error lines (``E: ...``), or its last line."""
    errors = [line for line in output.splitlines() if line.startswith("E:")]
    lines = errors or [line for line in output.splitlines() if line.strip()]
    return " ".join(lines[-3:]) if lines else "apt-get failed without a message"
