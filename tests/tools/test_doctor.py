"""The doctor: each tool present, installed just now, or missing with the package and reason."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from tools.doctor import needs
from tools.doctor.checkup import Status, examine, report
from tools.doctor.needs import NEEDS, Need, Stage, file, program, version_at_least


def test_a_tool_on_the_path_is_present() -> None:
    (verdict,) = examine([Stage.UNIT], needs=[Need("sh", program("sh"), (Stage.UNIT,), "dash")])
    assert verdict.status is Status.PRESENT
    assert verdict.detail.endswith("/sh")


def test_only_the_asked_stages_are_examined() -> None:
    chosen = [
        Need("sh", program("sh"), (Stage.UNIT,)),
        Need("never", program("pf-no-such-tool"), (Stage.DEPLOY,), "pf-no-such-package"),
    ]
    assert [v.need.name for v in examine([Stage.UNIT], needs=chosen)] == ["sh"]


def test_a_tool_no_package_provides_is_missing_with_the_package_and_apts_reason() -> None:
    absent = Need("pf-tool", program("pf-no-such-tool"), (Stage.UNIT,), "pf-no-such-package")
    (verdict,) = examine([Stage.UNIT], needs=[absent])
    assert verdict.status is Status.MISSING
    assert "apt-get install pf-no-such-package failed" in verdict.detail
    assert "pf-no-such-package" in verdict.detail.split("failed:")[1]  # apt's own words
    last = report([verdict]).splitlines()[-1]
    assert last == "doctor: cannot go on without pf-tool (Debian: pf-no-such-package)"


def test_a_check_alone_installs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    service = Need(
        "service", file(str(marker)), (Stage.UNIT,), remedy="starts", start=lambda: _touch(marker)
    )
    (verdict,) = examine([Stage.UNIT], install=False, needs=[service])
    assert verdict.status is Status.MISSING
    assert not marker.exists()


def test_a_service_started_by_the_doctor_counts_as_installed_just_now(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    service = Need(
        "service", file(str(marker)), (Stage.UNIT,), remedy="starts", start=lambda: _touch(marker)
    )
    (verdict,) = examine([Stage.UNIT], needs=[service])
    assert verdict.status is Status.INSTALLED
    assert report([verdict]).splitlines()[-1] == "doctor: all 1 tools ready (1 installed just now)"


def test_a_service_that_will_not_start_is_missing_with_its_reason(tmp_path: Path) -> None:
    service = Need(
        "service",
        file(str(tmp_path / "never")),
        (Stage.UNIT,),
        remedy="this machine's",
        start=lambda: "no cluster is set up",
    )
    (verdict,) = examine([Stage.UNIT], needs=[service])
    assert verdict.status is Status.MISSING
    assert verdict.detail.endswith("; no cluster is set up")


def test_a_version_older_than_needed_is_named(tmp_path: Path) -> None:
    old = tmp_path / "old-node"
    old.write_text("#!/bin/sh\necho v18.19.0\n")
    old.chmod(0o755)
    finding = version_at_least(str(old), (20,))()
    assert not finding.ok
    assert finding.detail == "18.19.0, older than 20"
    assert version_at_least(str(old), (18, 19))().ok


def test_postgresql_is_probed_where_the_tests_look(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        monkeypatch.setattr(needs, "POSTGRES_URL", f"postgresql://u@127.0.0.1:{port}/db")
        assert needs.postgres_answers().ok
    finding = needs.postgres_answers()
    assert not finding.ok
    assert f"nothing answers at 127.0.0.1:{port}" in finding.detail


def test_every_deploy_tool_names_the_debian_package_that_brings_it() -> None:
    deploy = [need for need in NEEDS if Stage.DEPLOY in need.stages]
    assert {need.package for need in deploy} >= {"podman", "iptables", "netavark", "mmdebstrap"}
    assert all(need.package for need in deploy)


def test_the_build_stage_names_what_compiling_pyicu_takes() -> None:
    build = {need.package for need in NEEDS if Stage.BUILD in need.stages}
    assert build == {"g++", "python3-dev", "pkg-config", "libicu-dev"}


def test_a_library_pkg_config_does_not_know_is_missing_with_its_name() -> None:
    finding = needs.pkg_config_module("pf-no-such-module")()
    assert not finding.ok
    assert finding.detail == "pkg-config knows no pf-no-such-module"


def test_on_this_machine_the_build_stage_is_ready() -> None:
    """`make install` ran the doctor's build stage before pip (PyICU compiled here): ICU is
    known to pkg-config with its version, and this Python has its headers."""
    missing = [v for v in examine([Stage.BUILD], install=False) if v.status is Status.MISSING]
    assert not missing, report(missing)
    assert needs.pkg_config_module("icu-i18n")().detail.startswith("icu-i18n ")
    assert needs.python_headers().detail.endswith("Python.h")


def test_on_this_machine_every_tool_of_the_unit_stage_is_ready() -> None:
    """`make unit` (alone, or as a stage of make test) ran the doctor for its stage first:
    nothing the unit tests need may be missing now. (The browser and deploy stages run the
    doctor for theirs; `make unit` alone does not install them.)"""
    missing = [v for v in examine([Stage.UNIT], install=False) if v.status is Status.MISSING]
    assert not missing, report(missing)


def _touch(path: Path) -> str:
    path.write_text("")
    os.chmod(path, 0o755)
    return ""


def test_a_font_is_found_by_its_family_and_language() -> None:
    """DejaVu (on every machine of this kind) covers English; a family nobody installed is
    missing with what was looked for; the browser stage names the Noto fonts' packages."""
    found = needs.font("DejaVu Sans", "en")()
    assert found.ok and found.detail.endswith(".ttf"), found
    absent = needs.font("PF No Such Family", "ar")()
    assert absent == needs.Finding(False, "no font matches :family=PF No Such Family:lang=ar")
    fonts = {need.name: need.package for need in NEEDS}
    assert fonts["Noto Sans Arabic"] == "fonts-noto-core"
    assert fonts["Noto Sans CJK KR"] == "fonts-noto-cjk"
