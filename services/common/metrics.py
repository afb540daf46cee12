"""Prometheus `/metrics` over HTTP and the event-loop lag every service exports."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator

from aiohttp import web
from prometheus_client import REGISTRY, Histogram
from prometheus_client.aiohttp import make_aiohttp_handler

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

LAG_SAMPLE_INTERVAL_S = 0.1


async def sample_event_loop_lag(interval_s: float = LAG_SAMPLE_INTERVAL_S) -> None:
    """Measure forever how much later than asked the loop wakes a sleeping task."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time() + interval_s
        await asyncio.sleep(interval_s)
        EVENT_LOOP_LAG.observe(max(0.0, loop.time() - asked))


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
async def metrics_server(host: str, port: int) -> AsyncIterator[int]:
    """Serve ``/metrics`` on ``host:port`` while the context is open; yield the bound port."""
    app = web.Application()
    add_metrics_route(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    lag = asyncio.create_task(sample_event_loop_lag())
    try:
        yield bound_port(site)
    finally:
        lag.cancel()
        await runner.cleanup()
