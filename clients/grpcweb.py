"""A small gRPC-web client over aiohttp: what the CLI, the bots and the tests speak.

Binary framing (``application/grpc-web+proto``); the status comes from the trailer
frame (or from the headers of a trailers-only answer). Errors raise :class:`CallError`
with the reason the server put in ``google.rpc.ErrorInfo``.
"""

from __future__ import annotations

import base64
import contextlib
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from typing import TypeVar

import aiohttp
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

from wire.grpcweb.framing import (
    FrameDecoder,
    encode_frame,
    parse_trailer_block,
    percent_decode,
)
from wire.grpcweb.status import Code

M = TypeVar("M", bound=Message)
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
CONTENT_TYPE = "application/grpc-web+proto"


class CallError(Exception):
    """A call ended with a non-OK gRPC status."""

    def __init__(self, code: int, message: str, reason: str, metadata: Mapping[str, str]) -> None:
        super().__init__(f"grpc status {code}: {message}")
        self.code = code
        self.message = message
        self.reason = reason
        self.metadata = dict(metadata)


def call_error(status: Mapping[str, str]) -> CallError | None:
    """Return the error a call's status headers or trailers name, or None for OK."""
    code = int(status.get("grpc-status", "2"))
    if code == 0:
        return None
    reason, metadata = "", {}
    details = status.get("grpc-status-details-bin")
    if details:
        proto = status_pb2.Status.FromString(base64.b64decode(details + "=" * (-len(details) % 4)))
        for detail in proto.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                reason, metadata = info.reason, dict(info.metadata)
    message = percent_decode(status.get("grpc-message", ""))
    if reason and message.startswith(f"{reason}: "):
        message = message[len(reason) + 2 :]
    return CallError(code, message, reason, metadata)


class GrpcWebClient:
    """Calls one gateway. ``token`` (after sign-in) goes in ``authorization``."""

    def __init__(self, session: aiohttp.ClientSession, base_url: str) -> None:
        self.session = session
        self.base_url = base_url.rstrip("/")
        self.token = ""
        # Awaited before each call (an account's client refreshes its token there).
        self.before_call: Callable[[str], Awaitable[None]] | None = None

    def _headers(self, timeout_s: float | None) -> dict[str, str]:
        headers = {"content-type": CONTENT_TYPE, "x-grpc-web": "1", "accept": CONTENT_TYPE}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        if timeout_s is not None:
            headers["grpc-timeout"] = f"{max(1, int(timeout_s * 1000))}m"
        return headers

    def _timeout(self, timeout_s: float | None) -> aiohttp.ClientTimeout:
        """Return the session's timeouts for a call, with no total for one that has no
        deadline (a Watch lasts its match): a session made with aiohttp's defaults would
        otherwise cut every stream after five minutes."""
        kept = self.session.timeout
        if timeout_s is not None:
            return kept
        return aiohttp.ClientTimeout(
            total=None,
            connect=kept.connect,
            sock_read=kept.sock_read,
            sock_connect=kept.sock_connect,
            ceil_threshold=kept.ceil_threshold,
        )

    async def unary(
        self, path: str, request: Message, reply_type: type[M], timeout_s: float | None = 10.0
    ) -> M:
        """Return the reply of a unary call.

        Raises:
            CallError: when the call ends with a non-OK status.
        """
        # Closed here, not left to the garbage collector: the response goes back to the
        # connection pool as soon as the reply is in.
        replies = self.stream(path, request, reply_type, timeout_s)
        async with contextlib.aclosing(replies):
            async for reply in replies:
                return reply
        raise CallError(Code.INTERNAL, f"{path} ended with no reply and no error", "", {})

    async def stream(
        self, path: str, request: Message, reply_type: type[M], timeout_s: float | None = None
    ) -> AsyncGenerator[M, None]:
        """Yield the replies of a server-streaming call as they arrive.

        Raises:
            CallError: when the call ends with a non-OK status.
        """
        if self.before_call is not None:
            await self.before_call(path)
        async with self.session.post(
            f"{self.base_url}{path}",
            data=encode_frame(request.SerializeToString()),
            headers=self._headers(timeout_s),
            timeout=self._timeout(timeout_s),
        ) as response:
            if response.status != 200:
                text = await response.text()
                raise CallError(Code.UNAVAILABLE, f"HTTP {response.status}: {text}", "", {})
            if "grpc-status" in response.headers:  # trailers-only: no body to wait for
                error = call_error(response.headers)
                if error is not None:
                    raise error
            decoder = FrameDecoder(MAX_MESSAGE_BYTES)
            async for chunk in response.content.iter_any():
                for frame in decoder.feed(chunk):
                    if frame.is_trailer:
                        error = call_error(dict(parse_trailer_block(frame.payload)))
                        if error is not None:
                            raise error
                        return
                    yield reply_type.FromString(frame.payload)
            decoder.finish()
        raise CallError(Code.UNAVAILABLE, f"{path}: the stream ended without a status", "", {})
