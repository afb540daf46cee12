"""Noticing that a browser went away while its server stream sat idle.

aiohttp does not cancel a handler when its client disconnects (unless the runner is
built with handler_cancellation=True), and once the request body has been read it
offers no callback either. A failed write shows the loss, but an idle stream writes
nothing; so idle streams are also checked: their transport, which aiohttp drops on
disconnect. One timer checks every open stream of the application at once, so a
thousand open streams cost one wake per interval, not a thousand.
"""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from services.common.ticker import Ticker


def is_gone(request: web.BaseRequest) -> bool:
    """Returns whether the client's connection has been lost or is closing."""
    transport = request.transport
    return transport is None or transport.is_closing()


class Departures:
    """The open streams' browsers, checked together every ``poll_s`` seconds."""

    def __init__(self, poll_s: float) -> None:
        # By id: a request is a mapping, not hashable.
        self._watched: dict[int, tuple[web.BaseRequest, Callable[[], object]]] = {}
        self._ticker = Ticker(lambda: poll_s, self._check)
        self._ticking = False

    def watch(self, request: web.BaseRequest, then: Callable[[], object]) -> None:
        """Call ``then`` once ``request``'s browser has gone (unless forgotten first)."""
        self._watched[id(request)] = (request, then)
        if not self._ticking:
            self._ticking = True
            self._ticker.start()

    def forget(self, request: web.BaseRequest) -> None:
        self._watched.pop(id(request), None)
        if not self._watched and self._ticking:
            self._ticking = False
            self._ticker.stop()

    def _check(self, due_ns: int, ran_ns: int) -> None:
        gone = [key for key, (request, _) in self._watched.items() if is_gone(request)]
        for key in gone:
            self._watched.pop(key)[1]()
