"""Noticing that a browser went away, so that its server stream ends at once.

aiohttp cancels a handler when its client's connection is lost only if the runner is
built with ``handler_cancellation=True``; the gateway's is (``services/gateway/__main__``),
and so must be any runner that serves the translator. The cancel is delivered in the
event-loop turn after aiohttp learns of the loss, and the stream's handler cancels its
backend call on the way out (``forward.relay_stream``); a request on another connection
takes more turns than that to be read, checked and forwarded. So a queue ticket or a
challenge ends with its browser, ahead of anything sent after the browser left. Under a
runner that does not cancel, only a failed write would show the loss, and an idle stream
writes nothing.
"""

from __future__ import annotations

from aiohttp import web


def is_gone(request: web.BaseRequest) -> bool:
    """Returns whether the client's connection has been lost or is closing."""
    transport = request.transport
    return transport is None or transport.is_closing()
