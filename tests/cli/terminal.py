"""Test support: the CLI as a child process with piped stdin and stdout, driven line by line.

Timeouts only guard against a hang; no test asserts on how fast anything is.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

from clients.cli.words import LOCALE_VARIABLES

REPO = Path(__file__).resolve().parents[2]
HANG_GUARD_S = 20.0
# The client speaks its locale's language: English unless a test asks for another.
_ENGLISH = {
    **{name: value for name, value in os.environ.items() if name not in LOCALE_VARIABLES},
    "LANG": "C.UTF-8",
}


class Terminal:
    """One running ``python -m clients.cli`` and everything it printed so far."""

    def __init__(self, process: asyncio.subprocess.Process, name: str) -> None:
        self.process = process
        self.name = name
        self.transcript: list[str] = []
        self._read = 0  # lines of the transcript already matched past

    @classmethod
    async def start(
        cls,
        url: str,
        name: str,
        stderr: Path,
        args: tuple[str, ...] | None = None,
        env: dict[str, str] | None = None,
    ) -> Terminal:
        """Start the CLI as ``name`` (a guest), or with ``args`` instead of ``--name``."""
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "clients.cli",
            "--url",
            url,
            *(("--name", name) if args is None else args),
            cwd=REPO,
            env={**_ENGLISH, **(env or {})},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr.open("wb"),
        )
        return cls(process, name)

    async def _next_line(self) -> str:
        assert self.process.stdout is not None
        try:
            raw = await asyncio.wait_for(self.process.stdout.readline(), HANG_GUARD_S)
        except TimeoutError:
            silent = f"{self.name}: no output for a long while"
            raise AssertionError(f"{silent}\n{self.text()}") from None
        if not raw:
            raise AssertionError(f"{self.name}: the client ended\n{self.text()}")
        line = raw.decode().rstrip("\n")
        self.transcript.append(line)
        return line

    async def expect(self, pattern: str) -> re.Match[str]:
        """Return the first new line matching ``pattern`` (lines before it are passed over)."""
        regex = re.compile(pattern)
        while True:
            if self._read < len(self.transcript):
                line = self.transcript[self._read]
                self._read += 1
            else:
                line = await self._next_line()
                self._read = len(self.transcript)
            found = regex.search(line)
            if found:
                return found

    async def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n".encode())
        await self.process.stdin.drain()

    def interrupt(self) -> None:
        """Press Ctrl-C."""
        self.process.send_signal(signal.SIGINT)

    async def finish(self) -> int:
        """Return the exit status once the client has ended by itself."""
        assert self.process.stdout is not None
        rest = await asyncio.wait_for(self.process.stdout.read(), HANG_GUARD_S)
        self.transcript += rest.decode().splitlines()
        return await asyncio.wait_for(self.process.wait(), HANG_GUARD_S)

    def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()

    def text(self) -> str:
        return "\n".join(self.transcript)


def first_legal(line: str) -> str:
    """Return the first command of a ``legal`` line, a bid range as its least bid."""
    first = line.removeprefix("legal").strip().split(" | ")[0].strip()
    range_of_bids = re.match(r"bid (\d+)\.\.", first)
    return f"bid {range_of_bids.group(1)}" if range_of_bids else first
