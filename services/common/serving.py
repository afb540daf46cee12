"""One gRPC service process: health, reflection, `/metrics`, a ready line, clean SIGTERM."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from runtime.stopping import wait_for_stop_signal
from services.common import callers
from services.common.gc_pauses import tune_collector
from services.common.metrics import LAG_SAMPLE_INTERVAL_S, metrics_server

# Registers servicers on the server and returns the full names of the services it added.
Register = Callable[[grpc.aio.Server], Sequence[str]]


@dataclass(frozen=True, slots=True)
class Listen:
    """Where a service listens (port 0 asks the kernel for a free one: tests do), and
    which callers its gRPC port accepts (``PF_CALLERS``: services/common/callers.py)."""

    host: str
    grpc_port: int
    metrics_port: int
    shutdown_grace_s: float = 2.0
    callers: str = ""
    # Method prefix -> the one caller allowed it, who may call nothing else (callers.py).
    reserved: tuple[tuple[str, str], ...] = ()


def announce_ready(name: str, **ports: int) -> None:
    """Print the line the stack launcher waits for, with the ports actually bound.

    Everything a service holds for its whole life exists by now: the collector is tuned
    here (services/common/gc_pauses.py), before the first request.
    """
    tune_collector()
    bound = " ".join(f"{key}={port}" for key, port in ports.items())
    print(f"READY {name} {bound}", flush=True)


@contextlib.asynccontextmanager
async def grpc_server(
    listen: Listen, register: Register
) -> AsyncIterator[tuple[grpc.aio.Server, int, health.aio.HealthServicer]]:
    """Start a grpc.aio server with health checking and reflection; stop it gracefully."""
    server = grpc.aio.server(
        interceptors=callers.interceptors(listen.callers, dict(listen.reserved)),
        # gRPC lets another process listen on the same port (SO_REUSEPORT) and splits the
        # connections between them: a port taken by anyone else must fail to bind instead.
        options=[("grpc.so_reuseport", 0)],
    )
    names = list(register(server))
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        [
            *names,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ],
        server,
    )
    port = server.add_insecure_port(f"{listen.host}:{listen.grpc_port}")
    await server.start()
    for name in ["", *names]:
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    try:
        yield server, port, health_servicer
    finally:
        # NOT_SERVING first, so balancers drain us before in-flight calls are cut.
        await health_servicer.enter_graceful_shutdown()
        await server.stop(grace=listen.shutdown_grace_s)


async def serve(
    name: str,
    listen: Listen,
    register: Register,
    lifespan: Callable[[], contextlib.AbstractAsyncContextManager[object]] | None = None,
    on_ready: Callable[[int], None] | None = None,
    lag_every_s: float | None = LAG_SAMPLE_INTERVAL_S,
) -> None:
    """Run a gRPC service until SIGINT/SIGTERM, with ``lifespan`` around it (NATS, DB).

    ``on_ready`` is told the gRPC port once it is bound (a service that announces its
    address needs it when the port was 0); ``lag_every_s`` as in ``metrics_server``.
    """
    async with contextlib.AsyncExitStack() as stack:
        if lifespan is not None:
            await stack.enter_async_context(lifespan())
        metrics_port = await stack.enter_async_context(
            metrics_server(listen.host, listen.metrics_port, lag_every_s)
        )
        _, port, _ = await stack.enter_async_context(grpc_server(listen, register))
        if on_ready is not None:
            on_ready(port)
        announce_ready(name, grpc=port, metrics=metrics_port)
        await wait_for_stop_signal()
    print(f"STOPPED {name}", file=sys.stderr, flush=True)
