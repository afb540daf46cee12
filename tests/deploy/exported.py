"""The names of every metric the project's processes export, read from their registries."""

from __future__ import annotations

import functools
import importlib
import pkgutil

from prometheus_client import REGISTRY

import clients
import services

# Sample names a metric family of each type exposes, from its family name.
SUFFIXES = {
    "counter": ("_total", "_created"),
    "gauge": ("",),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "summary": ("", "_count", "_sum", "_created"),
    "info": ("_info",),
    "unknown": ("",),
}
# Prometheus adds this one to every target itself.
FROM_PROMETHEUS = {"up"}


def import_everything() -> None:
    """Import every module of services/ and clients/, so each metric is registered."""
    for package in (services, clients):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if not module.name.endswith("__main__"):
                importlib.import_module(module.name)


@functools.cache
def exported_names() -> frozenset[str]:
    """Return every sample name a /metrics of this project can show, plus ``up``."""
    import_everything()
    names = set(FROM_PROMETHEUS)
    for family in REGISTRY.collect():
        names.update(family.name + suffix for suffix in SUFFIXES.get(family.type, ("",)))
    return frozenset(names)
