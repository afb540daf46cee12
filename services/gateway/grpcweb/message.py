"""The one request message of a unary or server-streaming call, read from body chunks."""

from __future__ import annotations

from services.gateway.grpcweb.formats import WireFormat
from services.gateway.grpcweb.text import Base64ChunkDecoder
from wire.grpcweb.errors import MalformedRequest, Reason
from wire.grpcweb.framing import HEADER_BYTES, FrameDecoder


class MessageReader:
    """Collects body chunks into exactly one uncompressed message frame.

    Streaming requests are not served, so a second frame, or any byte after the first
    frame, is an error rather than a later message.
    """

    def __init__(self, wire: WireFormat, max_message_bytes: int) -> None:
        self._text = Base64ChunkDecoder() if wire is WireFormat.TEXT else None
        self._frames = FrameDecoder(max_message_bytes)
        self._message: bytes | None = None

    def feed(self, chunk: bytes) -> None:
        """Takes the next piece of the body.

        Raises:
            MalformedRequest: bad base64 or framing, a second message, or one over the limit.
        """
        self._take(self._text.feed(chunk) if self._text is not None else chunk)

    def finish(self) -> bytes:
        """Returns the message once the body has ended.

        Raises:
            MalformedRequest: the body ended inside a frame, or held no message at all.
        """
        if self._text is not None:
            self._take(self._text.finish())
        self._frames.finish()
        if self._message is None:
            raise MalformedRequest(Reason.NO_MESSAGE, "request body holds no message frame")
        return self._message

    def _take(self, data: bytes) -> None:
        if self._message is not None and data:
            raise self._extra(len(data))
        for frame in self._frames.feed(data):
            if frame.is_trailer:
                raise MalformedRequest(Reason.TRAILER_FRAME, "a request may not carry trailers")
            if frame.is_compressed:
                raise MalformedRequest(
                    Reason.COMPRESSED_FRAME,
                    "message is flagged compressed but no grpc-encoding was negotiated",
                )
            if self._message is not None:
                raise self._extra(HEADER_BYTES + len(frame.payload))
            self._message = frame.payload
        if self._message is not None and self._frames.pending_bytes:
            raise self._extra(self._frames.pending_bytes)

    @staticmethod
    def _extra(count: int) -> MalformedRequest:
        return MalformedRequest(
            Reason.EXTRA_MESSAGE,
            f"{count} bytes follow the request message; this method takes exactly one",
        )
