"""Prometheus `/metrics` over HTTP and the event-loop lag every service exports."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator

from aiohttp import web
from prometheus_client import REGISTRY, Histogram
from prometheus_client.aiohttp import make_aiohttp_handler

from services.common.ticker import Ticker

# Sub-millisecond buckets: a lag of a few ms already matters to a race decided by arrival.
LATENCY_BUCKETS_S = (
    0.00005,
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
)

EVENT_LOOP_LAG = Histogram(
    "pf_event_loop_lag_seconds",
    "How late the event loop ran a callback scheduled on time",
    buckets=LATENCY_BUCKETS_S,
)

# On a command's way (the gateway, the rules; the arbitration's stall watcher samples its
# own) a lag of a few ms matters and is sampled ten times a second. Off it (ratings,
# tournaments, matchmaking, accounts) once a second: each sample is a wake of an idle
# process, and at 100 matches ten a second in each took 40 % of those four's CPU
# (docs/performance.md, 2026-12-07).
LAG_SAMPLE_INTERVAL_S = 0.1
OFF_PATH_LAG_SAMPLE_INTERVAL_S = 1.0


def observe_lag(due_ns: int, ran_ns: int) -> None:
    """Record how much later than due the event loop ran a timer callback."""
    EVENT_LOOP_LAG.observe(max(0, ran_ns - due_ns) / 1e9)


def lag_sampler(interval_s: float = LAG_SAMPLE_INTERVAL_S) -> Ticker:
    """Return a ticker that records the event loop's lag every ``interval_s`` (not started)."""
    return Ticker(lambda: interval_s, observe_lag)


def add_metrics_route(app: web.Application) -> None:
    """Serve the process's metrics at ``/metrics`` of ``app``."""
    app.router.add_get("/metrics", make_aiohttp_handler(REGISTRY))


def bound_port(site: web.TCPSite) -> int:
    """Return the port an aiohttp site listens on (asked for 0: the one it was given)."""
    server = site._server  # asyncio's Server or uvloop's: both list their sockets
    sockets: tuple[socket.socket, ...] = tuple(getattr(server, "sockets", ()))
    port: int = sockets[0].getsockname()[1]
    return port


@contextlib.asynccontextmanager
async def metrics_server(
    host: str, port: int, lag_every_s: float | None = LAG_SAMPLE_INTERVAL_S
) -> AsyncIterator[int]:
    """Serve ``/metrics`` on ``host:port`` while the context is open; yield the bound port.

    The event loop's lag is sampled meanwhile every ``lag_every_s``, unless the service
    samples it itself (None: the arbitration's stall watcher records it as it goes).
    """
    app = web.Application()
    add_metrics_route(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    lag = None if lag_every_s is None else lag_sampler(lag_every_s)
    if lag is not None:
        lag.start()
    try:
        yield bound_port(site)
    finally:
        if lag is not None:
            lag.stop()
        await runner.cleanup()
