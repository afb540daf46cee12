"""The project's JetStream assets on the cluster: buckets and streams at three replicas.

The services declare their streams and buckets at the server's default of one replica.
On a cluster the deployment makes them three: the buckets are created at three before any
service starts (a service opens an existing bucket as it is), and the streams, which the
arbitration declares at start, are scaled to three once it has (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass

import nats
from nats.errors import TimeoutError as NatsTimeoutError
from nats.js import api
from nats.js.errors import APIError, NotFoundError, ServiceUnavailableError

from bench.loadtest import truth
from services.common.placement import ARBITER_TTL_S, ARBITERS_BUCKET, OWNERS_BUCKET
from wire.subjects import LOG_STREAM, RESULTS_STREAM

REPLICAS = 3
STREAMS = (RESULTS_STREAM, LOG_STREAM)
BUCKETS = (ARBITERS_BUCKET, OWNERS_BUCKET)


@dataclass(frozen=True, slots=True)
class Replicated:
    """Where one stream lives: its leader, and whether each replica is current."""

    stream: str
    replicas: int
    leader: str
    current: tuple[bool, ...]

    @property
    def healthy(self) -> bool:
        return self.replicas == REPLICAS and len(self.current) == REPLICAS - 1 and all(self.current)


def bucket_configs() -> list[api.KeyValueConfig]:
    """Return the services' two buckets as services/common/placement.py makes them, at 3."""
    return [
        api.KeyValueConfig(
            bucket=ARBITERS_BUCKET,
            history=1,
            ttl=ARBITER_TTL_S,
            storage=api.StorageType.MEMORY,
            replicas=REPLICAS,
        ),
        api.KeyValueConfig(
            bucket=OWNERS_BUCKET, history=1, storage=api.StorageType.FILE, replicas=REPLICAS
        ),
    ]


async def wait_ready(url: str, timeout_s: float = 60.0) -> float:
    """Wait until JetStream answers on the cluster (a metadata leader elected); return the
    seconds it took. A node's health check passes before the nodes have elected one.

    Raises:
        TimeoutError: when it does not answer within ``timeout_s``.
    """
    started = time.monotonic()
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        async with asyncio.timeout(timeout_s):
            while True:
                try:
                    await js.account_info()
                    return time.monotonic() - started
                except (NatsTimeoutError, ServiceUnavailableError, APIError):
                    await asyncio.sleep(0.5)
    finally:
        await nc.close()


async def create_buckets(url: str) -> None:
    """Create the placement buckets at three replicas (kept as they are if they exist)."""
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        for config in bucket_configs():
            try:
                await js.key_value(config.bucket)
            except NotFoundError:
                await js.create_key_value(config)
    finally:
        await nc.close()


async def replicate_streams(url: str) -> None:
    """Scale each of STREAMS to three replicas.

    Raises:
        nats.js.errors.NotFoundError: when a stream has not been declared yet.
    """
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        for name in STREAMS:
            config = (await js.stream_info(name)).config
            if config.num_replicas != REPLICAS:
                config.num_replicas = REPLICAS
                await js.update_stream(config)
    finally:
        await nc.close()


async def placement(url: str) -> list[Replicated]:
    """Return each stream's and bucket's replication as the cluster reports it now."""
    nc = await nats.connect(url)
    try:
        js = nc.jetstream()
        found = []
        for name in (*STREAMS, *(f"KV_{bucket}" for bucket in BUCKETS)):
            info = await js.stream_info(name)
            cluster = info.cluster
            peers = tuple(bool(p.current) for p in (cluster.replicas or [])) if cluster else ()
            leader = (cluster.leader or "") if cluster else ""
            found.append(Replicated(name, info.config.num_replicas or 1, leader, peers))
        return found
    finally:
        await nc.close()


async def outcomes(url: str) -> dict[str, object]:
    """Return how the matches on the results stream ended: finished, voided by reason."""
    nc = await nats.connect(url)
    try:
        found = await truth.results(nc.jetstream())
    finally:
        await nc.close()
    voided = Counter(r.reason for r in found.values() if r.voided)
    return {"finished": sum(not r.voided for r in found.values()), "voided": dict(voided)}


async def wait_replicated(url: str, timeout_s: float = 60.0) -> list[Replicated]:
    """Wait until every stream and bucket has three current replicas; return them.

    Raises:
        TimeoutError: when one has not after ``timeout_s``.
    """
    async with asyncio.timeout(timeout_s):
        while True:
            found = await placement(url)
            if all(item.healthy for item in found):
                return found
            await asyncio.sleep(1.0)
