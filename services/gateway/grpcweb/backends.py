"""The gateway's channels to its backends, and the server streams running on them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol

import grpc.aio
from aiohttp import web

from services.common import callers
from services.gateway.grpcweb.config import GrpcWebConfig

# Raw-bytes callables: no serializers, so request and response bytes pass through
# untouched and the gateway never decodes a protobuf.
UnaryMethod = grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]
StreamMethod = grpc.aio.UnaryStreamMultiCallable[bytes, bytes]
StreamingCall = grpc.aio.UnaryStreamCall[bytes, bytes]


class Cancellable(Protocol):
    """A live server stream, backend or local: shutdown cancels it."""

    def cancel(self) -> object: ...


class Backends:
    """Open channels by backend name, their raw-bytes method callables, and live streams."""

    def __init__(
        self,
        channels: Mapping[str, grpc.aio.Channel],
        options: tuple[tuple[str, int | str], ...] = (),
        caller_token: str = "",
    ) -> None:
        self._channels = dict(channels)
        self._options = list(options)
        self._caller_token = caller_token
        self._instances: dict[str, grpc.aio.Channel] = {}  # by target, opened on first use
        self._unary: dict[tuple[str, str], UnaryMethod] = {}
        self._streaming: dict[tuple[str, str], StreamMethod] = {}
        self._streams: set[Cancellable] = set()
        self.closing = False

    def unary(self, backend: str, path: str, target: str = "") -> UnaryMethod:
        """Returns the callable for a unary method on `backend` (at `target`, when given)."""
        key = (target or backend, path)
        if key not in self._unary:
            self._unary[key] = self._channel(backend, target).unary_unary(path)
        return self._unary[key]

    def server_streaming(self, backend: str, path: str, target: str = "") -> StreamMethod:
        """Returns the callable for a server-streaming method on `backend` (or `target`)."""
        key = (target or backend, path)
        if key not in self._streaming:
            self._streaming[key] = self._channel(backend, target).unary_stream(path)
        return self._streaming[key]

    def _channel(self, backend: str, target: str) -> grpc.aio.Channel:
        if not target:
            return self._channels[backend]
        if target not in self._instances:
            self._instances[target] = callers.channel(target, self._caller_token, self._options)
        return self._instances[target]

    @contextmanager
    def tracking(self, call: Cancellable) -> Iterator[None]:
        """Keeps `call` in the set that `cancel_streams` ends, for the duration."""
        self._streams.add(call)
        try:
            yield
        finally:
            self._streams.discard(call)

    def cancel_streams(self) -> None:
        """Cancels every live server stream; each then ends its response with UNAVAILABLE."""
        self.closing = True
        for call in list(self._streams):
            call.cancel()

    async def close(self) -> None:
        """Closes every channel, cancelling whatever calls remain on them."""
        self.closing = True
        channels = [*self._channels.values(), *self._instances.values()]
        await asyncio.gather(*(channel.close() for channel in channels))


BACKENDS = web.AppKey("grpcweb_backends", Backends)


def backends_context(
    config: GrpcWebConfig,
) -> Callable[[web.Application], AsyncIterator[None]]:
    """Returns a cleanup context that opens the channels on the serving loop.

    grpc.aio channels bind to the loop they are made on, so they are made here, at app
    startup, and never at import or in a constructor that may run on another loop.
    """

    async def open_channels(app: web.Application) -> AsyncIterator[None]:
        options = list(config.channel_options)
        token = config.caller_token
        backends = Backends(
            {
                name: callers.channel(target, token, options)
                for name, target in config.backends.items()
            },
            config.channel_options,
            token,
        )
        app[BACKENDS] = backends
        try:
            yield
        finally:
            await backends.close()

    return open_channels


async def end_streams(app: web.Application) -> None:
    """An on_shutdown hook: ends live server streams so shutdown need not wait them out."""
    app[BACKENDS].cancel_streams()
