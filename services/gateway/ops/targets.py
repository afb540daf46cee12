"""Which services' `/metrics` the ops page reads: ``PF_METRICS_TARGETS="name=host:port,..."``."""

from __future__ import annotations

import re
from dataclasses import dataclass

_NAME = re.compile(r"[a-z][a-z0-9_-]*")
_ADDRESS = re.compile(r"[A-Za-z0-9.\-\[\]:]+:\d{1,5}")


@dataclass(frozen=True, slots=True)
class MetricsTarget:
    """One process to scrape: a name for the page and its metrics address."""

    name: str
    address: str

    @property
    def url(self) -> str:
        return f"http://{self.address}/metrics"


def parse_targets(text: str) -> tuple[MetricsTarget, ...]:
    """Return the targets listed in ``text`` (empty text: none).

    Raises:
        ValueError: for an entry that is not ``name=host:port``, or a name given twice.
    """
    targets: list[MetricsTarget] = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry:
            continue
        name, _, address = entry.partition("=")
        if not _NAME.fullmatch(name) or not _ADDRESS.fullmatch(address):
            raise ValueError(
                f"PF_METRICS_TARGETS entry {entry!r} is not name=host:port (e.g. rules=rules:7200)"
            )
        if any(target.name == name for target in targets):
            raise ValueError(f"PF_METRICS_TARGETS names {name!r} twice")
        targets.append(MetricsTarget(name, address))
    return tuple(targets)
