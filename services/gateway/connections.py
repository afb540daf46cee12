"""How many HTTP connections one client address may hold open, and for how long idle.

A browser holds a few connections (HTTP/1.1: up to six to one host, a play socket or
two). A client that opens hundreds, or opens connections and sends nothing, or sends its
headers a byte at a time, holds file descriptors and memory for nothing.

- **Idle**: a connection that has no complete request for ``idle_s`` (from its opening,
  or from its last response) is closed. aiohttp's keep-alive timer does exactly this,
  headers that trickle in included (partial headers do not restart it), so the runner is
  built with ``keepalive_timeout=idle_s``. A body that trickles is the gRPC-web relay's
  to bound (``GrpcWebConfig.body_timeout_s``); an open stream or socket is not idle.
- **Per address**: past ``per_address`` open connections from one address, the newest
  are closed at the next look (every ``SWEEP_S``), except for the addresses named
  unlimited (this machine's own by default: the bot pool, the CLI, the benchmarks, a
  reverse proxy in front).
"""

from __future__ import annotations

import itertools
from collections import defaultdict

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from prometheus_client import Counter, Gauge

from services.common.ticker import Ticker

SWEEP_S = 1.0
PER_ADDRESS = 256  # PF_CONNECTIONS_PER_ADDRESS
IDLE_S = 20.0  # PF_IDLE_CONNECTION_S

OPEN_CONNECTIONS = Gauge("pf_gateway_connections", "HTTP connections open at the last look")
CLOSED_OVER_LIMIT = Counter(
    "pf_gateway_connections_closed_total",
    "Connections closed because their address held more than its limit",
)


def address_of(handler: RequestHandler) -> str:
    """Return the peer's address of a connection ('' once it has gone)."""
    peer = handler.peername
    if isinstance(peer, tuple):
        return str(peer[0])
    return peer or ""


class ConnectionCap:
    """Closes the newest connections of any address that holds more than its limit."""

    def __init__(self, runner: web.BaseRunner, per_address: int, unlimited: frozenset[str]) -> None:
        self._runner = runner
        self._per_address = per_address
        self._unlimited = unlimited
        self._order = itertools.count()
        self._first_seen: dict[RequestHandler, int] = {}
        self._ticker = Ticker(lambda: SWEEP_S, lambda _due, _ran: self.sweep())

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()

    def sweep(self) -> None:
        """Look at every open connection once; close the excess of each address."""
        server = self._runner.server
        handlers = server.connections if server is not None else []
        OPEN_CONNECTIONS.set(len(handlers))
        seen = {h: self._first_seen.get(h) for h in handlers}
        self._first_seen = {h: n if n is not None else next(self._order) for h, n in seen.items()}
        by_address: defaultdict[str, list[RequestHandler]] = defaultdict(list)
        for handler in handlers:
            address = address_of(handler)
            if address and address not in self._unlimited:
                by_address[address].append(handler)
        for held in by_address.values():
            if len(held) <= self._per_address:
                continue
            held.sort(key=self._first_seen.__getitem__)
            for handler in held[self._per_address :]:
                CLOSED_OVER_LIMIT.inc()
                handler.force_close()
