"""Renders a kustomization the way ``kustomize build`` does, for the subset k8s/ uses.

No kustomize binary installs by name here (not on PyPI, npm or Debian), so the tests
render the overlays themselves: resources (files and folders with a kustomization),
namespace, configMapGenerator and secretGenerator (files, envs and literals; no hash
suffix), images and
strategic-merge patches keyed by kind and name. Anything else is refused, so a
kustomization using more than this fails the tests instead of being half rendered.
"""

from __future__ import annotations

import base64
import copy
import re
from pathlib import Path
from typing import Any

import yaml

Resource = dict[str, Any]

SUPPORTED = {
    "apiVersion",
    "kind",
    "resources",
    "namespace",
    "configMapGenerator",
    "secretGenerator",
    "generatorOptions",
    "images",
    "patches",
}
CLUSTER_SCOPED = {"Namespace", "ClusterRole", "ClusterRoleBinding", "PersistentVolume"}
# Lists whose items are merged by name, as strategic merge does for these fields.
MERGED_BY_NAME = {"containers", "initContainers", "env", "ports", "volumes", "volumeMounts"}
GENERATOR_FIELDS = {"name", "files", "envs", "literals"}
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Unsupported(ValueError):
    """The kustomization uses something this renderer does not implement."""


def load_documents(path: Path) -> list[Resource]:
    """Return the YAML documents in ``path`` (empty ones dropped)."""
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def read_env_file(path: Path) -> dict[str, str]:
    """Return the ``KEY=value`` lines of ``path`` as kustomize's ``envs`` and Compose's
    ``env_file`` both read them: blank lines and ``#`` comments skipped, split at the first
    ``=``, the value as written.

    Raises:
        Unsupported: for a line without ``=`` (kustomize would read the value from the
            environment of whoever renders) or a key that is not an environment name.
    """
    found: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.lstrip()
        if not line or line.startswith("#"):
            continue
        key, equals, value = line.partition("=")
        if not equals or not ENV_NAME.fullmatch(key):
            raise Unsupported(f"{path}:{number}: not KEY=value: {line!r}")
        found[key] = value
    return found


def build(folder: Path) -> list[Resource]:
    """Return the resources ``kustomize build folder`` would output.

    Raises:
        Unsupported: for a field or option outside the subset above.
    """
    spec = yaml.safe_load((folder / "kustomization.yaml").read_text())
    unknown = set(spec) - SUPPORTED
    if unknown:
        raise Unsupported(f"{folder}: kustomization fields {sorted(unknown)} are not rendered")
    options = spec.get("generatorOptions", {})
    if (spec.get("configMapGenerator") or spec.get("secretGenerator")) and not options.get(
        "disableNameSuffixHash"
    ):
        raise Unsupported(f"{folder}: generated names need disableNameSuffixHash: true here")
    resources: list[Resource] = []
    for entry in spec.get("resources", []):
        path = folder / entry
        resources += build(path) if path.is_dir() else load_documents(path)
    labels = options.get("labels", {})
    for generator in spec.get("configMapGenerator", []):
        resources.append(_generated("ConfigMap", generator, folder, labels, encode=False))
    for generator in spec.get("secretGenerator", []):
        resources.append(_generated("Secret", generator, folder, labels, encode=True))
    for patch in spec.get("patches", []):
        if set(patch) != {"path"}:
            raise Unsupported(f"{folder}: only patches with a path are rendered: {patch}")
        for change in load_documents(folder / patch["path"]):
            _apply_patch(resources, change)
    for image in spec.get("images", []):
        _set_image(resources, image)
    if "namespace" in spec:
        _set_namespace(resources, spec["namespace"])
    return resources


def _generated(
    kind: str, generator: dict[str, Any], folder: Path, labels: dict[str, str], encode: bool
) -> Resource:
    unknown = set(generator) - GENERATOR_FIELDS
    if unknown:
        raise Unsupported(f"{folder}: generator fields {sorted(unknown)} are not rendered")
    data: dict[str, str] = {}
    for env_file in generator.get("envs", []):
        data.update(read_env_file(folder / env_file))
    for item in generator.get("files", []):
        key, _, source = item.rpartition("=")
        path = folder / source
        data[key or path.name] = path.read_text()
    for literal in generator.get("literals", []):
        key, _, value = literal.partition("=")
        data[key] = value
    if encode:
        data = {k: base64.b64encode(v.encode()).decode() for k, v in data.items()}
    metadata: dict[str, Any] = {"name": generator["name"]}
    if labels:
        metadata["labels"] = dict(labels)
    resource: Resource = {"apiVersion": "v1", "kind": kind, "metadata": metadata, "data": data}
    if kind == "Secret":
        resource["type"] = "Opaque"
    return resource


def _apply_patch(resources: list[Resource], change: Resource) -> None:
    name = change["metadata"]["name"]
    for resource in resources:
        if resource["kind"] == change["kind"] and resource["metadata"]["name"] == name:
            merged = merge(resource, change)
            resource.clear()
            resource.update(merged)
            return
    raise Unsupported(f"patch for {change['kind']}/{name} matches no resource")


def merge(base: Any, change: Any, field: str = "") -> Any:
    """Return ``base`` with ``change`` merged in (strategic merge for the lists above)."""
    if isinstance(base, dict) and isinstance(change, dict):
        out = copy.deepcopy(base)
        for key, value in change.items():
            out[key] = merge(base[key], value, key) if key in base else copy.deepcopy(value)
        return out
    if isinstance(base, list) and isinstance(change, list) and field in MERGED_BY_NAME:
        out_list = copy.deepcopy(base)
        for item in change:
            match = [i for i, old in enumerate(out_list) if old.get("name") == item.get("name")]
            if match:
                out_list[match[0]] = merge(out_list[match[0]], item)
            else:
                out_list.append(copy.deepcopy(item))
        return out_list
    return copy.deepcopy(change)


def containers(resource: Resource) -> list[dict[str, Any]]:
    """Return a workload's containers (empty for other kinds)."""
    template = resource.get("spec", {}).get("template", {})
    found: list[dict[str, Any]] = template.get("spec", {}).get("containers", [])
    return found


def _set_image(resources: list[Resource], image: dict[str, str]) -> None:
    for resource in resources:
        for container in containers(resource):
            name, _, tag = container["image"].partition(":")
            if name == image["name"]:
                new_name = image.get("newName", name)
                new_tag = image.get("newTag", tag)
                container["image"] = f"{new_name}:{new_tag}" if new_tag else new_name


def _set_namespace(resources: list[Resource], namespace: str) -> None:
    for resource in resources:
        if resource["kind"] in CLUSTER_SCOPED:
            continue
        resource["metadata"]["namespace"] = namespace
        for subject in resource.get("subjects", []):
            if subject.get("kind") == "ServiceAccount":
                subject["namespace"] = namespace
