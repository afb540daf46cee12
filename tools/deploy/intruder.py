"""A stranger at the deployment's NATS ports: what the server says to each try.

Speaks the NATS protocol itself (CONNECT, then SUB or PUB, each followed by PING), so
every refusal is the server's own ``-ERR`` line, read before its PONG.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

ANSWER_TIMEOUT_S = 10.0
ALLOWED = ""


@dataclass(frozen=True, slots=True)
class Attempt:
    """Who connects (no user: nobody) and what they try once connected, as ``SUB subject``
    or ``PUB subject`` (empty: only connecting); ``name`` says it in the report."""

    name: str
    user: str = ""
    password: str = ""
    action: str = ""


async def answer(host: str, port: int, attempt: Attempt) -> str:
    """Return the server's refusal of ``attempt`` (its ``-ERR`` line), or ALLOWED."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        await reader.readline()  # INFO
        hello: dict[str, object] = {"verbose": False, "pedantic": False, "protocol": 1}
        if attempt.user:
            hello.update(user=attempt.user, **{"pass": attempt.password})
        writer.write(f"CONNECT {json.dumps(hello)}\r\nPING\r\n".encode())
        refused = await _errors_until_pong(reader)
        if refused or not attempt.action:
            return refused
        verb, subject = attempt.action.split(" ", 1)
        line = f"SUB {subject} 1\r\n" if verb == "SUB" else f"PUB {subject} 0\r\n\r\n"
        writer.write(f"{line}PING\r\n".encode())
        return await _errors_until_pong(reader)
    finally:
        writer.close()


async def _errors_until_pong(reader: asyncio.StreamReader) -> str:
    """Return the first ``-ERR`` line before the next PONG ('' when there is none)."""
    errors: list[str] = []
    async with asyncio.timeout(ANSWER_TIMEOUT_S):
        while True:
            raw = await reader.readline()
            if not raw:  # the server closed the connection
                return errors[0] if errors else "closed"
            line = raw.decode().strip()
            if line == "PONG":
                return errors[0] if errors else ALLOWED
            if line.startswith("-ERR"):
                errors.append(line)
