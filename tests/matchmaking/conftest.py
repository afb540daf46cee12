"""The matchmaking service under test: a real nats-server, the real process, real gRPC.

Everything heavy is per module (one server and one service process per test file); the
responders and the players are per test. ``clean`` checks after each test that every
queue is empty and no challenge is open, so no test leaves a ticket for the next.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import aiohttp
import grpc
import nats
import pytest
import pytest_asyncio
from nats.aio.client import Client
from prometheus_client.parser import text_string_to_metric_families

from photofinish.matchmaking.v1 import matchmaking_pb2_grpc
from services.common.rejection import Rejection, from_rpc_error
from services.stack.natsd import NatsServer, start_nats
from services.stack.processes import Child, start_child
from tests.matchmaking.responders import (
    ArbitrationStandIn,
    BotPool,
    listen_as_arbitration,
    stop_listening,
)

if TYPE_CHECKING:
    from photofinish.matchmaking.v1.matchmaking_pb2_grpc import MatchmakingAsyncStub

# Guards against a hang, never a speed target: every call carries this gRPC deadline.
CALL_TIMEOUT_S = 10.0

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Person:
    """A signed-in player as the gateway names them: an account's session, or a guest."""

    id: str
    name: str
    guest: bool = False

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        named = (("x-pf-player-id", self.id), ("x-pf-player-name", self.name))
        return named if self.guest else (*named, ("x-pf-session-id", f"s_{self.id}"))


def person(name: str, guest: bool = False) -> Person:
    """Return a player with a fresh id, so tests never share one (an account's, or a guest)."""
    return Person(f"{name.lower()}-{uuid.uuid4().hex[:8]}", name, guest)


async def rejected(call: object) -> Rejection:
    """Return the rejection ``call`` (an awaitable RPC or a stream read) ends with."""
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    return from_rpc_error(caught.value)


async def next_message(call: grpc.aio.UnaryStreamCall[Any, T]) -> T:
    """Return the stream's next message, failing the test when the stream ended."""
    message = await call.read()
    assert message is not grpc.aio.EOF, "the stream ended"
    return cast(T, message)


async def metrics(child: Child) -> dict[str, float]:
    """Return the service's matchmaking samples as ``name{label=value,...}`` -> value."""
    url = f"http://{child.address('metrics')}/metrics"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        text = await response.text()
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name.startswith("pf_matchmaking_"):
                labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
                samples[f"{sample.name}{{{labels}}}"] = sample.value
    return samples


async def until_idle(child: Child) -> None:
    """Return once no ticket waits and no challenge is open (the service saw every close)."""
    async with asyncio.timeout(CALL_TIMEOUT_S):
        while True:
            samples = await metrics(child)
            busy = [
                name
                for name, value in samples.items()
                if value
                and name.startswith(("pf_matchmaking_queue_length", "pf_matchmaking_open_chall"))
            ]
            if not busy:
                return
            await asyncio.sleep(0.02)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def nats_server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[NatsServer]:
    server = await start_nats(tmp_path_factory.mktemp("nats"))
    yield server
    await server.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def service(
    nats_server: NatsServer, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Child]:
    log_dir: Path = tmp_path_factory.mktemp("logs")
    env = {"NATS_URL": nats_server.url, "PF_GRPC_PORT": "0", "PF_METRICS_PORT": "0"}
    child = await start_child("matchmaking", "services.matchmaking", env, log_dir)
    yield child
    assert await child.stop() == 0


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def nc(nats_server: NatsServer) -> AsyncIterator[Client]:
    client = await nats.connect(nats_server.url)
    yield client
    await client.drain()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def stub(service: Child) -> AsyncIterator[MatchmakingAsyncStub]:
    async with grpc.aio.insecure_channel(service.address()) as channel:
        yield matchmaking_pb2_grpc.MatchmakingStub(channel)


@pytest_asyncio.fixture(loop_scope="module")
async def clean(service: Child) -> AsyncIterator[None]:
    yield
    await until_idle(service)


@pytest_asyncio.fixture(loop_scope="module")
async def arbitration(nc: Client) -> AsyncIterator[ArbitrationStandIn]:
    """An arbitration instance that opens every match it is asked to."""
    answering = ArbitrationStandIn()
    sub = await listen_as_arbitration(nc, answering)
    yield answering
    await stop_listening(nc, sub)


@pytest_asyncio.fixture(loop_scope="module")
async def silent_arbitration(nc: Client) -> AsyncIterator[ArbitrationStandIn]:
    """An arbitration instance that receives requests and never answers."""
    silent = ArbitrationStandIn(silent=True)
    sub = await listen_as_arbitration(nc, silent)
    yield silent
    await stop_listening(nc, sub)


@pytest_asyncio.fixture(loop_scope="module")
async def bot_pool(service: Child) -> AsyncIterator[BotPool]:
    """A bot pool connected to the service, until the service has seen it go."""
    pool = BotPool()
    serving = asyncio.create_task(pool.serve(service.address()))
    await until_pools(service, 1)
    yield pool
    serving.cancel()
    await asyncio.gather(serving, return_exceptions=True)
    await until_pools(service, 0)


async def until_pools(child: Child, count: int) -> None:
    """Return once ``count`` bot pools hold their stream open to the service."""
    async with asyncio.timeout(CALL_TIMEOUT_S):
        while (await metrics(child)).get("pf_matchmaking_bot_pools{}", 0.0) != count:
            await asyncio.sleep(0.02)
