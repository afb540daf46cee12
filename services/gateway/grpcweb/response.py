"""Writing gRPC-web responses: headers, message frames, the trailer frame, in either format."""

from __future__ import annotations

from collections.abc import Mapping

from aiohttp import web

from services.gateway.grpcweb.formats import WireFormat
from services.gateway.grpcweb.text import encode_chunk
from wire.grpcweb.framing import encode_frame, encode_trailer_frame, status_headers
from wire.grpcweb.metadata import Metadata, header_lines
from wire.grpcweb.status import Status


def encode_for(wire: WireFormat, frame: bytes) -> bytes:
    """Returns a frame as it goes on the wire: as is, or as one padded base64 chunk."""
    return encode_chunk(frame) if wire is WireFormat.TEXT else frame


def _headers(
    wire: WireFormat, metadata: Metadata, cors: Mapping[str, str]
) -> list[tuple[str, str]]:
    return [("Content-Type", wire.content_type), *cors.items(), *header_lines(metadata)]


def trailers_only(
    wire: WireFormat, status: Status, cors: Mapping[str, str], headers: Metadata = ()
) -> web.Response:
    """Returns a 200 for a call that failed before any message.

    The status goes in the HTTP headers (gRPC's Trailers-Only, which connect-web and
    grpc-web read first) and again as a trailer frame, for clients that read only the body.
    """
    http_headers = _headers(wire, headers, cors) + status_headers(status)
    return web.Response(body=encode_for(wire, encode_trailer_frame(status)), headers=http_headers)


def unary(
    wire: WireFormat, headers: Metadata, message: bytes, status: Status, cors: Mapping[str, str]
) -> web.Response:
    """Returns the response to a successful unary call: one message, then the trailers."""
    body = encode_for(wire, encode_frame(message)) + encode_for(wire, encode_trailer_frame(status))
    return web.Response(body=body, headers=_headers(wire, headers, cors))


class StreamWriter:
    """Writes a server stream: headers once, each message as it comes, then the trailers.

    Every write goes straight to the transport (aiohttp buffers nothing in between), so
    each message reaches the browser as soon as the backend sends it.
    """

    def __init__(self, request: web.Request, wire: WireFormat, cors: Mapping[str, str]) -> None:
        self._request = request
        self._wire = wire
        self._cors = cors
        self.response = web.StreamResponse()

    async def start(self, headers: Metadata) -> None:
        """Sends the status line and headers.

        Raises:
            ConnectionResetError: the client has gone.
        """
        self.response.headers.extend(_headers(self._wire, headers, self._cors))
        await self.response.prepare(self._request)

    async def send(self, message: bytes) -> None:
        """Sends one message frame.

        Raises:
            ConnectionResetError: the client has gone.
        """
        await self.response.write(encode_for(self._wire, encode_frame(message)))

    async def end(self, status: Status) -> None:
        """Sends the trailer frame and ends the body.

        Raises:
            ConnectionResetError: the client has gone.
        """
        await self.response.write(encode_for(self._wire, encode_trailer_frame(status)))
        await self.response.write_eof()
