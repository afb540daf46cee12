"""Every service is an honest process: health, reflection, /metrics, and a clean SIGTERM."""

from __future__ import annotations

import errno
import functools
import os
import signal
import socket
from pathlib import Path
from typing import Any

import aiohttp
import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from clients.arena import ArenaClient
from services.common import callers
from services.stack.stack import (
    ACCOUNTS_NICENESS,
    CLOCK_NICENESS,
    SERVICES,
    Stack,
    StackConfig,
    run_stack,
)
from tests.e2e.support import metric
from tests.waiting import poll_until


async def _sampled(http: aiohttp.ClientSession, stack: Stack, service: str, lag: str) -> bool:
    return lag in await metric(http, stack, service, "pf_jetstream_consumer_pending")


async def listed_services(channel: grpc.aio.Channel) -> set[str]:
    # The stubs' type hints describe the synchronous channel; this is the asyncio one.
    stub: Any = reflection_pb2_grpc.ServerReflectionStub(channel)  # type: ignore[arg-type]
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    async for reply in stub.ServerReflectionInfo(iter([request])):
        return {service.name for service in reply.list_services_response.service}
    raise AssertionError("reflection answered nothing")


async def test_every_service_serves_health_reflection_and_metrics_and_stops_cleanly(
    tmp_path: Path,
) -> None:
    async with run_stack(StackConfig(tmp_path, with_bots=False)) as stack:
        async with aiohttp.ClientSession() as http:
            for name in SERVICES:
                # Reflection, like every method but health, is for the services' callers.
                token = stack.children["gateway"].env["PF_CALLER_TOKEN"]
                async with callers.channel(stack.address(name), token) as channel:
                    health_stub: Any = health_pb2_grpc.HealthStub(channel)
                    health = await health_stub.Check(health_pb2.HealthCheckRequest())
                    assert health.status == health_pb2.HealthCheckResponse.SERVING
                    assert f"photofinish.{name}.v1.{name.capitalize()}" in await listed_services(
                        channel
                    )
                metrics_url = f"http://127.0.0.1:{stack.children[name].ports['metrics']}/metrics"
                async with http.get(metrics_url) as response:
                    assert "pf_event_loop_lag_seconds" in await response.text()
                # Its NATS connections (nats-py's, the hot path's link) read as up.
                up = await metric(http, stack, name, "pf_nats_connected")
                assert up and set(up.values()) == {1.0}, (name, up)
            for durable in ("ratings", "tournaments"):
                lag = f"consumer={durable},stream=PF_RESULTS"
                sampled = functools.partial(_sampled, http, stack, durable, lag)
                await poll_until(f"{durable}'s consumer lag is sampled", sampled)
            async with http.get(f"{stack.gateway_url}/healthz") as response:
                assert response.status == 200
            gateway_metrics = f"http://{stack.address('gateway', 'metrics')}/metrics"
            async with http.get(gateway_metrics) as response:
                text = await response.text()
                assert "pf_event_loop_lag_seconds" in text
                assert 'pf_nats_connected{connection="gateway"} 1.0' in text
                assert 'pf_nats_connected{connection="gateway-link"} 1.0' in text
        for name in [*SERVICES, "gateway"]:
            assert await stack.stop(name, signal.SIGTERM) == 0, f"{name} did not stop cleanly"


def thread_niceness(pid: int) -> set[int]:
    """The niceness of every thread of the process (Linux keeps one per thread)."""
    return {
        int((task / "stat").read_text().rsplit(")", 1)[1].split()[16])
        for task in Path(f"/proc/{pid}/task").iterdir()
    }


def nats_server_of(data_dir: Path) -> int:
    """The pid of the nats-server keeping its data under ``data_dir``."""
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except (FileNotFoundError, PermissionError, NotADirectoryError):
            continue
        if argv[0].endswith(b"nats-server") and str(data_dir / "nats").encode() in b" ".join(argv):
            return int(proc.name)
    raise AssertionError(f"no nats-server of {data_dir}")


async def test_the_clock_takes_the_cpu_first_and_password_hashing_last(
    tmp_path: Path,
) -> None:
    """On one machine shared with other work, the processes that stamp, carry and judge
    time (nats-server, gateway, arbitration, rules) run before it, so a busy machine does
    not lag their loops into timing faults; a burst of sign-ups (argon2id) runs after
    everything: the accounts process and its hashing threads run nicer than the rest."""
    async with run_stack(StackConfig(tmp_path, with_bots=False)) as stack:
        async with aiohttp.ClientSession() as http:
            await ArenaClient(http, stack.gateway_url).sign_up_new("Nice")  # threads start
        accounts = stack.children["accounts"].process.pid
        assert thread_niceness(accounts) == {ACCOUNTS_NICENESS}
        assert len(list(Path(f"/proc/{accounts}/task").iterdir())) > 1  # hashing threads too
        # The clock's own processes take the CPU first, where this user may raise a
        # priority (root, as under make test); elsewhere they run at the default.
        clock = CLOCK_NICENESS if os.geteuid() == 0 else 0
        for name in ("arbitration", "rules", "gateway"):
            assert thread_niceness(stack.children[name].process.pid) == {clock}, name
        assert thread_niceness(nats_server_of(tmp_path)) == {clock}


async def test_a_stopped_process_keeps_its_ports_until_it_listens_on_them_again(
    tmp_path: Path,
) -> None:
    """A process is started again on the ports its clients know. While it is down the
    kernel hands them to no one who asks for a free port (a neighbour's process once took a
    ratings port so, and the restart failed with EADDRINUSE); then it listens on them."""
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False)) as stack,
        aiohttp.ClientSession() as http,
    ):
        for name in ("ratings", "gateway"):  # gRPC's listener and aiohttp's
            ports = dict(stack.children[name].ports)
            await stack.stop(name, signal.SIGKILL)
            # Nothing connected to its /metrics: without the hold, this bind would succeed.
            with socket.socket() as other, pytest.raises(OSError) as taken:
                other.bind(("127.0.0.1", ports["metrics"]))
            assert taken.value.errno == errno.EADDRINUSE
            again = await stack.start_again(name)
            assert again.ports == ports
            assert name not in stack.held
            async with http.get(f"http://{again.address('metrics')}/metrics") as response:
                assert "pf_event_loop_lag_seconds" in await response.text()
        async with http.get(f"{stack.gateway_url}/healthz") as response:
            assert response.status == 200
