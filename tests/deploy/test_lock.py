"""The hashed locks (requirements/) agree with pyproject.toml: every pin, every hash.

`make install` installs requirements/dev.lock and the Dockerfile requirements/runtime.lock,
both with --require-hashes; `make lock` writes them. A pin changed in pyproject.toml without
`make lock` would install the old version (the project goes in with --no-deps), so these
checks fail first.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.deploy.paths import ROOT

REQUIREMENTS = ROOT / "requirements"
DEV_LOCK = REQUIREMENTS / "dev.lock"
RUNTIME_LOCK = REQUIREMENTS / "runtime.lock"
BUILD_IN = REQUIREMENTS / "build.in"
ENTRY = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;\\]+)")
HASH = re.compile(r"--hash=sha256:[0-9a-f]{64}$")


def lock_entries(path: Path) -> dict[str, tuple[str, list[str]]]:
    """Return each locked package (canonical name) with its version and hash options."""
    entries: dict[str, tuple[str, list[str]]] = {}
    text = path.read_text().replace("\\\n", " ")
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        found = ENTRY.match(line)
        assert found, f"{path.name}: not a pinned requirement: {line[:80]!r}"
        name = canonicalize_name(found["name"])
        assert name not in entries, f"{path.name}: {name} locked twice"
        options = line[found.end() :].split()
        entries[name] = (found["version"], options)
    return entries


def pins(requirements: list[str]) -> dict[str, str]:
    """Return each ``name==version`` requirement's version by canonical name."""
    found: dict[str, str] = {}
    for text in requirements:
        requirement = Requirement(text)
        specifiers = list(requirement.specifier)
        assert len(specifiers) == 1 and specifiers[0].operator == "==", f"unpinned: {text}"
        found[canonicalize_name(requirement.name)] = specifiers[0].version
    return found


def project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def runtime_pins() -> dict[str, str]:
    data = project()["project"]
    assert isinstance(data, dict)
    return pins(data["dependencies"])


def dev_pins() -> dict[str, str]:
    data = project()["project"]
    assert isinstance(data, dict)
    return pins(data["optional-dependencies"]["dev"])


def build_pins() -> dict[str, str]:
    lines = [line.split("#", 1)[0].strip() for line in BUILD_IN.read_text().splitlines()]
    return pins([line for line in lines if line])


@pytest.mark.parametrize("lock", [DEV_LOCK, RUNTIME_LOCK], ids=lambda path: path.name)
def test_every_locked_package_is_pinned_with_sha256_hashes(lock: Path) -> None:
    entries = lock_entries(lock)
    assert len(entries) > 10
    for name, (_, options) in entries.items():
        hashes = [option for option in options if option.startswith("--hash=")]
        assert hashes, f"{lock.name}: {name} has no hash"
        assert all(HASH.match(option) for option in hashes), f"{lock.name}: {name}: {hashes}"
        assert hashes == options, f"{lock.name}: {name}: markers or options {options}"


def test_the_dev_lock_holds_every_pin_of_pyproject_and_build_in_at_its_version() -> None:
    locked = lock_entries(DEV_LOCK)
    wanted = runtime_pins() | dev_pins() | build_pins()
    for name, version in wanted.items():
        assert name in locked, f"dev.lock lacks {name}: run make lock"
        assert locked[name][0] == version, f"dev.lock has {name} {locked[name][0]}, not {version}"


def test_the_runtime_lock_holds_the_runtime_pins_and_no_dev_tool() -> None:
    locked = lock_entries(RUNTIME_LOCK)
    for name, version in (runtime_pins() | build_pins()).items():
        assert name in locked, f"runtime.lock lacks {name}: run make lock"
        assert locked[name][0] == version, f"runtime.lock has {name} {locked[name][0]}"
    for name in ("pytest", "mypy", "ruff", "uv", "playwright"):
        assert name not in locked, f"runtime.lock carries the dev tool {name}"


def test_the_build_lock_is_build_in_s_pins_as_the_dev_lock_has_them() -> None:
    dev = lock_entries(DEV_LOCK)
    build = lock_entries(REQUIREMENTS / "build.lock")
    assert set(build) == set(build_pins()), "build.lock holds build.in's tools alone"
    for name, (version, hashes) in build.items():
        assert (version, sorted(hashes)) == (dev[name][0], sorted(dev[name][1])), name


def test_the_runtime_lock_is_the_dev_lock_less_the_dev_tools() -> None:
    dev = lock_entries(DEV_LOCK)
    for name, (version, hashes) in lock_entries(RUNTIME_LOCK).items():
        assert name in dev, f"runtime.lock has {name}, dev.lock does not (the tests never ran it)"
        assert (version, sorted(hashes)) == (dev[name][0], sorted(dev[name][1])), name


def test_the_locked_setuptools_is_the_build_backend_pyproject_asks_for() -> None:
    requires = project()["build-system"]
    assert isinstance(requires, dict)
    for text in requires["requires"]:
        requirement = Requirement(text)
        version = lock_entries(DEV_LOCK)[canonicalize_name(requirement.name)][0]
        assert requirement.specifier.contains(version), f"{text}: locked {version}"


def test_make_install_uses_the_lock_with_hashes_and_the_project_without_its_dependencies() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "LOCK := requirements/dev.lock" in makefile
    # The locked build tools first, then the lock built with them: nothing unhashed.
    assert "pip install --quiet --require-hashes -r requirements/build.lock" in makefile
    assert "pip install --quiet --require-hashes --no-build-isolation -r $(LOCK)" in makefile
    assert "pip install --quiet --no-deps --no-build-isolation -e ." in makefile
    stamp = next(line for line in makefile.splitlines() if line.startswith("STAMP :="))
    assert "$(LOCK)" in stamp, "the install stamp must change with the lock"
    assert not (ROOT / "constraints.txt").exists(), "the locks replaced constraints.txt"
