"""Service processes as children: start one, wait for its ready line, stop it cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

from services.stack.private import PRIVATE_CHILD, open_private

READY_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 8.0


@dataclass(slots=True)
class Child:
    """A running service process and the ports it announced (``READY name k=v ...``)."""

    name: str
    process: asyncio.subprocess.Process
    ports: dict[str, int] = field(default_factory=dict)
    pump: asyncio.Task[None] | None = None
    module: str = ""
    env: dict[str, str] = field(default_factory=dict)
    niceness: int = 0

    def address(self, key: str = "grpc") -> str:
        return f"127.0.0.1:{self.ports[key]}"

    async def stop(self, sig: signal.Signals = signal.SIGTERM) -> int:
        """Send ``sig``, wait for the exit (SIGKILL after a while) and return the exit code."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(sig)
            try:
                await asyncio.wait_for(self.process.wait(), STOP_TIMEOUT_S)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self.pump is not None:
            await self.pump
        return self.process.returncode if self.process.returncode is not None else -1


def with_niceness(niceness: int, *argv: str) -> tuple[str, ...]:
    """Return ``argv`` run at ``niceness`` (0: as it is).

    Through nice(1), so every thread the process will have starts at it (Linux keeps a
    niceness per thread). A negative niceness needs root or CAP_SYS_NICE; without it nice
    says so in the child's log and the process runs at the default.
    """
    return ("nice", "-n", str(niceness), *argv) if niceness else argv


async def start_child(
    name: str,
    module: str,
    env: dict[str, str],
    log_dir: Path,
    echo: bool = False,
    niceness: int = 0,
) -> Child:
    """Start ``python -m module`` and return once it prints its ready line.

    Its output (JSON logs on stderr, anything on stdout) goes to ``log_dir/name.log``;
    a positive ``niceness`` lets the other processes have the CPU first, a negative one
    takes it first (``with_niceness``).

    Raises:
        RuntimeError: when the process exits or stays silent past the timeout.
    """
    log_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    log_path = log_dir / f"{name}.log"
    process = await asyncio.create_subprocess_exec(
        *PRIVATE_CHILD,
        *with_niceness(niceness, sys.executable, "-m", module),
        env={**os.environ, **env, "PYTHONUNBUFFERED": "1"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
    )
    child = Child(name, process, module=module, env=env, niceness=niceness)
    ready = asyncio.get_running_loop().create_future()
    child.pump = asyncio.create_task(_pump(child, log_path, ready, echo))
    try:
        await asyncio.wait_for(asyncio.shield(ready), READY_TIMEOUT_S)
    except (TimeoutError, RuntimeError) as error:
        await child.stop(signal.SIGKILL)
        tail = log_path.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"{name} did not become ready ({error}); log tail:\n{tail}") from None
    return child


async def _pump(child: Child, log_path: Path, ready: asyncio.Future[None], echo: bool) -> None:
    """Copy the child's output to its log; resolve ``ready`` at the READY line."""
    assert child.process.stdout is not None
    with open_private(log_path) as log:
        async for line in child.process.stdout:
            log.write(line)
            log.flush()
            if echo:
                sys.stderr.write(f"[{child.name}] {line.decode(errors='replace')}")
            if not ready.done() and line.startswith(b"READY "):
                words = line.decode().split()
                child.ports = {k: int(v) for k, v in (w.split("=", 1) for w in words[2:])}
                ready.set_result(None)
    if not ready.done():
        ready.set_exception(RuntimeError(f"exited with {await child.process.wait()}"))
