"""The Dockerfile, read statically (no Docker engine runs here): slim, unprivileged, whole."""

from __future__ import annotations

from tests.deploy.paths import DOCKERFILE, ROOT


def instructions() -> list[tuple[str, str]]:
    lines = DOCKERFILE.read_text().replace("\\\n", " ").splitlines()
    found = []
    for line in lines:
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last_from = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last_from:]


def stage(name: str) -> list[tuple[str, str]]:
    steps = instructions()
    start = steps.index(("FROM", f"${{BASE_IMAGE}} AS {name}"))
    end = next((i for i in range(start + 1, len(steps)) if steps[i][0] == "FROM"), len(steps))
    return steps[start:end]


def test_the_base_is_an_argument_that_defaults_to_the_slim_python_311_on_bookworm() -> None:
    steps = instructions()
    # Bookworm's: the plain python:3.11-slim moved to Debian 13, whose ICU is not libicu72.
    assert steps[0] == ("ARG", "BASE_IMAGE=python:3.11-slim-bookworm")
    assert final_stage()[0] == ("FROM", "${BASE_IMAGE}")


def test_the_builders_ca_and_index_are_build_arguments_never_kept_in_the_image() -> None:
    steps = instructions()
    args = {rest for word, rest in steps if word == "ARG"}
    assert {"PIP_CERT", "PIP_INDEX_URL", "NODE_EXTRA_CA_CERTS"} <= args
    kept = " ".join(rest for word, rest in steps if word in {"ENV", "COPY", "ADD"})
    assert "PIP_CERT" not in kept and "CA_CERTS" not in kept and "pip.conf" not in kept


def test_the_runtime_switches_to_a_non_root_user_before_it_runs() -> None:
    steps = final_stage()
    users = [rest for word, rest in steps if word == "USER"]
    assert users and users[-1].split(":")[0] not in {"root", "0"}
    assert any(word == "RUN" and "useradd" in rest for word, rest in steps)
    user_at = max(i for i, (word, _) in enumerate(steps) if word == "USER")
    assert steps[-1][0] == "CMD" and user_at < len(steps) - 1


def test_the_image_carries_the_built_web_client_and_serves_it() -> None:
    steps = final_stage()
    assert ("COPY", "--from=web /src/clients/web/dist ./clients/web/dist") in steps
    env = " ".join(rest for word, rest in steps if word == "ENV")
    assert "PF_STATIC_DIR=/app/clients/web/dist" in env
    assert "PF_HOST=0.0.0.0" in env


def test_the_web_stage_builds_the_client_as_make_does_with_node_alone() -> None:
    steps = instructions()
    assert ("FROM", "${BASE_IMAGE} AS web") in steps
    runs = " ".join(rest for word, rest in stage("web") if word == "RUN")
    assert "make web" in runs
    # The generated TypeScript is committed: no Python package, no compiler (PyICU is
    # built once, in the deps stage).
    assert not any(word in runs for word in ("pip", "g++", "libicu-dev", "python3-dev"))


def test_local_state_and_secrets_stay_out_of_the_build_context() -> None:
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".git", ".venv", "var", "clients/web/node_modules"} <= ignored


def test_the_deps_stage_installs_the_hashed_lock_from_the_lock_alone() -> None:
    steps = stage("deps")
    runs = [(i, rest) for i, (word, rest) in enumerate(steps) if word == "RUN" and "pip " in rest]
    locked = [
        i
        for i, rest in runs
        if "--require-hashes --no-build-isolation -r requirements/runtime.lock" in rest
    ]
    assert len(runs) == 1 and len(locked) == 1
    # The locked build tools go in first: the lock's sdists are built with them alone.
    build = runs[0][1]
    assert build.index("--require-hashes -r requirements/build.lock") < build.index(
        "-r requirements/runtime.lock"
    )
    # Its own layer: the locks are the only files copied in, so only a new lock rebuilds it.
    copies = [rest for word, rest in steps if word == "COPY"]
    assert copies == ["requirements/build.lock requirements/runtime.lock ./requirements/"]
    # PyICU is compiled here, against ICU's headers.
    tools = " ".join(rest for word, rest in steps[: locked[0]] if word == "RUN")
    assert all(package in tools for package in ("g++", "pkg-config", "libicu-dev"))


def test_the_runtime_copies_the_dependencies_first_then_installs_the_project_alone() -> None:
    steps = final_stage()
    copied = steps.index(("COPY", "--from=deps /opt/photofinish /opt/photofinish"))
    runs = [(i, rest) for i, (word, rest) in enumerate(steps) if word == "RUN" and "pip " in rest]
    project = [i for i, rest in runs if "--no-deps" in rest and "pip install" in rest]
    assert len(runs) == 1 and len(project) == 1 and copied < project[0]
    # No source is copied in before the dependencies.
    sources = [i for i, (word, rest) in enumerate(steps) if word == "COPY" and "services" in rest]
    assert sources and min(sources) > copied
    # ICU's runtime library, and no compiler or headers.
    apt = " ".join(rest for word, rest in steps if word == "RUN" and "apt-get install" in rest)
    assert "libicu72" in apt
    assert not any(tool in apt for tool in ("g++", "-dev", "pkg-config"))


def test_every_pip_install_is_the_lock_with_hashes_or_the_project_alone() -> None:
    runs = [rest for word, rest in instructions() if word == "RUN" and "pip " in rest]
    for rest in runs:
        for command in rest.split("&&"):
            if "pip install" in command:
                assert "--require-hashes" in command or "--no-deps" in command, command
