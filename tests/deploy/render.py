"""The overlays as Kubernetes receives them: rendered by ``kubectl kustomize``.

Also the one reading of an env file that Compose (``env_file``) and the rendered
ConfigMap (kustomize's ``envs``) are compared against.
"""

from __future__ import annotations

import copy
import functools
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

Resource = dict[str, Any]
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class RenderError(RuntimeError):
    """kubectl kustomize refused the kustomization."""


def kubectl() -> str:
    """Return kubectl's path.

    Raises:
        FileNotFoundError: when kubectl is not installed.
    """
    found = shutil.which("kubectl")
    if found is None:
        raise FileNotFoundError("kubectl is not installed (it renders k8s/ for the tests)")
    return found


@functools.cache
def _rendered(folder: Path) -> tuple[Resource, ...]:
    done = subprocess.run(
        [kubectl(), "kustomize", str(folder)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RenderError(done.stderr.strip())
    return tuple(doc for doc in yaml.safe_load_all(done.stdout) if doc)


def build(folder: Path) -> list[Resource]:
    """Return the resources ``kubectl kustomize folder`` renders (copies: safe to change).

    Raises:
        RenderError: when kustomize refuses the folder.
    """
    return copy.deepcopy(list(_rendered(folder.resolve())))


def containers(resource: Resource) -> list[dict[str, Any]]:
    """Return a workload's containers (empty for other kinds)."""
    template = resource.get("spec", {}).get("template", {})
    found: list[dict[str, Any]] = template.get("spec", {}).get("containers", [])
    return found


def read_env_file(path: Path) -> dict[str, str]:
    """Return the ``KEY=value`` lines of ``path``: blank lines and ``#`` comments skipped,
    split at the first ``=``, the value as written.

    Raises:
        ValueError: for a line that is not ``KEY=value`` with KEY an environment name.
    """
    found: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.lstrip()
        if not line or line.startswith("#"):
            continue
        key, equals, value = line.partition("=")
        if not equals or not ENV_NAME.fullmatch(key):
            raise ValueError(f"{path}:{number}: not KEY=value: {line!r}")
        found[key] = value
    return found
