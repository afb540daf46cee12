"""The check itself: probe every need, install what is missing, probe again, report."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from tools.doctor import apt
from tools.doctor.needs import NEEDS, Finding, Need, Stage


class Status(Enum):
    PRESENT = "present"
    INSTALLED = "installed just now"
    MISSING = "missing"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One need's outcome: its status and what was seen (a version, a path, or why not)."""

    need: Need
    status: Status
    detail: str

    @property
    def source(self) -> str:
        """Where the tool comes from, as a person would look for it."""
        return f"Debian: {self.need.package}" if self.need.package else self.need.remedy


def examine(
    stages: Iterable[Stage], install: bool = True, needs: Iterable[Need] = NEEDS
) -> list[Verdict]:
    """Probe the needs of ``stages``; with ``install``, bring in what is missing, then look again.

    Every missing package goes to apt-get in a single run, so a fresh machine reads the
    package lists once.
    """
    wanted = set(stages)
    chosen = [need for need in needs if wanted.intersection(need.stages)]
    first = {need.name: need.probe() for need in chosen}
    absent = [need for need in chosen if not first[need.name].ok]
    why_not: dict[str, str] = {}
    if install and absent:
        why_not = _bring_in(absent)
    verdicts = []
    for need in chosen:
        seen = first[need.name]
        if seen.ok:
            verdicts.append(Verdict(need, Status.PRESENT, seen.detail))
            continue
        again = need.probe() if install else seen
        if again.ok:
            verdicts.append(Verdict(need, Status.INSTALLED, again.detail))
        else:
            verdicts.append(Verdict(need, Status.MISSING, _reason(need, again, why_not)))
    return verdicts


def _bring_in(absent: list[Need]) -> dict[str, str]:
    """Install the packages and start the services ``absent`` names; return failures by name."""
    why_not: dict[str, str] = {}
    packages = sorted({n.package for n in absent if n.package and not apt.is_installed(n.package)})
    if packages and apt.install(packages):
        # One package nobody offers fails the whole run: try each alone to say which.
        for package in packages:
            if error := apt.install([package], refresh=False):
                why_not[package] = error
    for need in absent:
        if need.start is not None:
            problem = need.start()
            if problem:
                why_not[need.name] = problem
    return why_not


def _reason(need: Need, seen: Finding, why_not: dict[str, str]) -> str:
    if need.package and need.package in why_not:
        return f"{seen.detail}; apt-get install {need.package} failed: {why_not[need.package]}"
    if need.name in why_not:
        return f"{seen.detail}; {why_not[need.name]}"
    if need.package and apt.is_installed(need.package):
        return f"{seen.detail}, though Debian's {need.package} is installed"
    return seen.detail


def report(verdicts: list[Verdict]) -> str:
    """Return the verdicts as a table, and a last line that names what is missing."""
    rows = [("tool", "from", "status")]
    rows += [(v.need.name, v.source, f"{v.status.value}: {v.detail}") for v in verdicts]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    lines = [f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c}" for a, b, c in rows]
    missing = [v for v in verdicts if v.status is Status.MISSING]
    if missing:
        names = ", ".join(f"{v.need.name} ({v.source})" for v in missing)
        lines.append(f"doctor: cannot go on without {names}")
    else:
        installed = sum(v.status is Status.INSTALLED for v in verdicts)
        lines.append(f"doctor: all {len(verdicts)} tools ready ({installed} installed just now)")
    return "\n".join(lines)


def ensure(stages: Iterable[Stage]) -> None:
    """Install what ``stages`` need, or stop with the report naming each missing tool.

    Raises:
        SystemExit: when a tool is still missing after the attempt.
    """
    verdicts = examine(stages)
    if any(v.status is Status.MISSING for v in verdicts):
        raise SystemExit(report(verdicts))
    if any(v.status is Status.INSTALLED for v in verdicts):
        print(report(verdicts), flush=True)
