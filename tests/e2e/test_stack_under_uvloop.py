"""The stack starts under uvloop, the loop `make run` and the benchmarks use, not only
under the tests' own: uvloop refused a child's ``umask=`` (bench.hostile failed at once),
so the children's umask is set by the command they are started with."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import uvloop

from services.stack.natsd import start_nats


def test_nats_server_starts_under_uvloop_with_private_files(tmp_path: Path) -> None:
    async def start_and_stop() -> None:
        server = await start_nats(tmp_path / "nats")
        try:
            # Made by the child itself, with the umask it was started with.
            made = [p for p in (tmp_path / "nats").rglob("*") if p.is_file()]
            assert made, "nats-server made no file"
            assert {stat.filemode(p.stat().st_mode) for p in made} == {"-rw-------"}
            assert os.getpgid(server.process.pid) == server.process.pid  # its own session
        finally:
            await server.stop()

    uvloop.run(start_and_stop())
