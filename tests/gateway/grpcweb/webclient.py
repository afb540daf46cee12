"""gRPC-web spoken by hand over aiohttp.ClientSession, independent of the gateway's code."""

from __future__ import annotations

import base64
import struct
from dataclasses import dataclass, field
from urllib.parse import unquote

import aiohttp
from google.rpc import error_details_pb2, status_pb2
from multidict import CIMultiDictProxy

BINARY = "application/grpc-web+proto"
TEXT = "application/grpc-web-text"


def frame(payload: bytes, flag: int = 0) -> bytes:
    return struct.pack(">BI", flag, len(payload)) + payload


def from_text(body: bytes) -> bytes:
    """Decodes base64 quantum by quantum, so separately padded chunks decode too."""
    return b"".join(base64.b64decode(body[i : i + 4]) for i in range(0, len(body), 4))


def from_binary_header(value: str) -> bytes:
    """Decodes a "-bin" header, which gRPC may send without base64 padding."""
    return base64.b64decode(value + "=" * (-len(value) % 4))


@dataclass
class Reply:
    """What a gRPC-web call returned: HTTP status and headers, messages, trailers."""

    http_status: int
    headers: CIMultiDictProxy[str]
    messages: list[bytes] = field(default_factory=list)
    trailers: dict[str, str] = field(default_factory=dict)

    @property
    def status(self) -> int:
        return int(self.trailers["grpc-status"])

    @property
    def message(self) -> str:
        return unquote(self.trailers.get("grpc-message", ""))

    @property
    def reason(self) -> str:
        """The ErrorInfo reason the status details carry ("" without details)."""
        encoded = self.trailers.get("grpc-status-details-bin", "")
        if not encoded:
            return ""
        rich = status_pb2.Status.FromString(base64.b64decode(encoded + "=" * (-len(encoded) % 4)))
        for detail in rich.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                return str(info.reason)
        return ""


def parse(reply: Reply, body: bytes) -> Reply:
    """Fills `reply` from a whole binary body; asserts the trailer frame comes last."""
    at = 0
    while at < len(body):
        flag, length = struct.unpack_from(">BI", body, at)
        payload = body[at + 5 : at + 5 + length]
        assert len(payload) == length, "truncated frame in response"
        at += 5 + length
        if flag == 0x80:
            assert at == len(body), "bytes after the trailer frame"
            for line in payload.decode("ascii").split("\r\n"):
                if line:
                    name, _, value = line.partition(":")
                    reply.trailers[name.strip().lower()] = value.strip()
        else:
            assert flag == 0, f"unexpected flag {flag}"
            reply.messages.append(payload)
    return reply


async def call(
    session: aiohttp.ClientSession,
    url: str,
    message: bytes = b"",
    *,
    content_type: str = BINARY,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> Reply:
    """Makes one call; `body` replaces the framed `message` to send malformed input."""
    raw = frame(message) if body is None else body
    if content_type.startswith(TEXT) and body is None:
        raw = base64.b64encode(raw)
    sent = {"Content-Type": content_type, "X-Grpc-Web": "1", **(headers or {})}
    async with session.post(url, data=raw, headers=sent) as response:
        received = await response.read()
        reply = Reply(response.status, response.headers)
    if response.headers.get("Content-Type", "").startswith(TEXT):
        received = from_text(received)
    return parse(reply, received)


async def read_frame(content: aiohttp.StreamReader) -> tuple[int, bytes]:
    """Reads the next frame of a binary response as it streams in."""
    flag, length = struct.unpack(">BI", await content.readexactly(5))
    return flag, await content.readexactly(length)
