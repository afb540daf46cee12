"""The NATS client protocol as bytes: what the server sends, read; what a client sends, written.

Pure: a :class:`Reader` takes the bytes as they arrive, in pieces of any size, and returns
the complete frames; the ``*_frame`` functions build what a client sends. Only the core
protocol (https://docs.nats.io/reference/reference-protocols/nats-protocol): INFO, MSG,
HMSG, PING, PONG, +OK, -ERR in; CONNECT, SUB, UNSUB, PUB, HPUB, PING, PONG out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

CRLF = b"\r\n"
MAX_CONTROL_LINE = 4096  # the server's own limit on a protocol line
PING = b"PING\r\n"
PONG = b"PONG\r\n"


class ProtocolError(ValueError):
    """The server sent something that is not the NATS protocol."""


@dataclass(slots=True)
class Message:
    """A message delivered on a subscription (MSG or HMSG).

    ``headers`` is the raw header block (b"" when none), ``status`` the status a server
    put in it (503: no responders; 0 when none). Read, never changed: not ``frozen``
    only because a frozen dataclass's ``__init__`` costs about six times as much, and one
    is made for every message every service receives.
    """

    sid: int
    subject: str
    reply: str
    data: bytes
    headers: bytes = b""

    @property
    def status(self) -> int:
        """Return the inline status of a server-made message ("NATS/1.0 503"), 0 when none."""
        if not self.headers.startswith(b"NATS/1.0 "):
            return 0
        code = self.headers[9:12]
        return int(code) if code.isdigit() else 0


@dataclass(frozen=True, slots=True)
class Info:
    """The server's INFO: its limits and what it offers."""

    fields: dict[str, Any]

    @property
    def max_payload(self) -> int:
        return int(self.fields.get("max_payload", 1024 * 1024))


@dataclass(frozen=True, slots=True)
class ServerError:
    """A -ERR line: the server's complaint (it closes the connection after most)."""

    text: str


Frame = Message | Info | ServerError | bytes  # bytes: PING or PONG


class Reader:
    """Turns the bytes the server sends into frames, however the reads split them."""

    def __init__(self) -> None:
        self._pending = b""

    def feed(self, data: bytes) -> list[Frame]:
        """Return the frames ``data`` completes (what is left waits for the next bytes).

        Raises:
            ProtocolError: for a line no NATS server sends.
        """
        buffer = self._pending + data if self._pending else data
        frames: list[Frame] = []
        append = frames.append
        position, size = 0, len(buffer)
        while position < size:
            end = buffer.find(CRLF, position)
            if end < 0:
                if size - position > MAX_CONTROL_LINE:
                    raise ProtocolError("a protocol line longer than the server ever sends")
                break
            # startswith at a position: no slice made to compare (every message comes here)
            if buffer.startswith(b"MSG ", position):
                parts = buffer[position + 4 : end].split()
                total = int(parts[-1])
                body = end + 2
                if size < body + total + 2:
                    break
                reply = parts[2].decode() if len(parts) == 4 else ""
                payload = buffer[body : body + total]
                append(Message(int(parts[1]), parts[0].decode(), reply, payload))
                position = body + total + 2
            elif buffer.startswith(b"HMSG", position):
                parts = buffer[position + 5 : end].split()
                header_size, total = int(parts[-2]), int(parts[-1])
                body = end + 2
                if size < body + total + 2:
                    break
                reply = parts[2].decode() if len(parts) == 5 else ""
                headers = buffer[body : body + header_size]
                payload = buffer[body + header_size : body + total]
                append(Message(int(parts[1]), parts[0].decode(), reply, payload, headers))
                position = body + total + 2
            else:
                append(_control(buffer[position:end]))
                position = end + 2
        self._pending = buffer[position:]
        return frames


def _control(line: bytes) -> Frame:
    if line == b"PING":
        return PING
    if line == b"PONG":
        return PONG
    if line == b"+OK":
        return b"+OK"
    if line.startswith(b"INFO "):
        return Info(json.loads(line[5:]))
    if line.startswith(b"-ERR"):
        return ServerError(line[4:].strip().strip(b"'").decode(errors="replace"))
    raise ProtocolError(f"unexpected protocol line {line[:60]!r}")


def connect_frame(name: str, echo: bool = True, user: str = "", password: str = "") -> bytes:
    """Return the CONNECT a client sends first: headers and no-responders on, no verbosity,
    and the user's credentials when it has some."""
    options: dict[str, object] = {
        "verbose": False,
        "pedantic": False,
        "lang": "python",
        "version": "photofinish",
        "protocol": 1,
        "headers": True,
        "no_responders": True,
        "echo": echo,
        "name": name,
    }
    if user:
        options.update(user=user, **{"pass": password})
    return b"CONNECT " + json.dumps(options, separators=(",", ":")).encode() + CRLF


def sub_frame(subject: str, sid: int, queue: str = "") -> bytes:
    """Return a SUB of ``subject`` (in ``queue``'s group when given) as ``sid``."""
    if queue:
        return f"SUB {subject} {queue} {sid}\r\n".encode()
    return f"SUB {subject} {sid}\r\n".encode()


def unsub_frame(sid: int) -> bytes:
    return f"UNSUB {sid}\r\n".encode()


def pub_frame(subject: str, payload: bytes, reply: str = "", headers: bytes = b"") -> bytes:
    """Return a PUB (an HPUB when ``headers``, a full "NATS/1.0" block) of ``payload``."""
    if headers:
        head = f"HPUB {subject} {reply} {len(headers)} {len(headers) + len(payload)}\r\n"
        return b"".join((head.encode(), headers, payload, CRLF))
    return b"".join((f"PUB {subject} {reply} {len(payload)}\r\n".encode(), payload, CRLF))


def header_block(pairs: dict[str, str]) -> bytes:
    """Return a NATS header block ("NATS/1.0" then one "Name: value" line each)."""
    lines = "".join(f"{name}: {value}\r\n" for name, value in pairs.items())
    return f"NATS/1.0\r\n{lines}\r\n".encode()


_HEADER_KEYS: dict[str, bytes] = {}  # each name as it is looked for: its line's start


def header_value(block: bytes, name: str) -> str | None:
    """Return the value of the header ``name`` in a NATS header block (None: it has none).

    Read in place, without splitting the block: a republished message carries a dozen
    headers, and the hot path wants one or two of them.
    """
    key = _HEADER_KEYS.get(name)
    if key is None:
        key = _HEADER_KEYS[name] = f"\r\n{name}:".encode()
    start = block.find(key)
    if start < 0:
        return None
    start += len(key)
    end = block.find(b"\r\n", start)
    return block[start : end if end >= 0 else len(block)].decode(errors="replace").strip()
