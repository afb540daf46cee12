"""Noticing that a browser went away while its server stream sat idle.

aiohttp does not cancel a handler when its client disconnects (unless the runner is
built with handler_cancellation=True), and once the request body has been read it
offers no callback either. A failed write shows the loss, but an idle stream writes
nothing; so an idle stream also polls the transport, which aiohttp drops on disconnect.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web


def is_gone(request: web.BaseRequest) -> bool:
    """Returns whether the client's connection has been lost or is closing."""
    transport = request.transport
    return transport is None or transport.is_closing()


async def call_when_gone(
    request: web.BaseRequest, poll_s: float, then: Callable[[], object]
) -> None:
    """Calls `then` once the client has gone, checking every `poll_s` seconds."""
    while not is_gone(request):
        await asyncio.sleep(poll_s)
    then()
