"""The project's JetStream assets on the cluster: streams and buckets at three replicas.

The services declare them at ``PF_NATS_REPLICAS``, 3 in deploy/photofinish.env; this
module waits for the cluster to answer and checks that every copy is current.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass

import nats
from nats.errors import TimeoutError as NatsTimeoutError
from nats.js.errors import APIError, ServiceUnavailableError

from services.common.live import LIVE_BUCKET, WATCHERS_BUCKET
from services.common.placement import INSTANCES_BUCKET, OWNERS_BUCKET
from tools.results import read_results
from wire.subjects import LOG_STREAM, RESULTS_STREAM

REPLICAS = 3
STREAMS = (RESULTS_STREAM, LOG_STREAM)
BUCKETS = (INSTANCES_BUCKET, OWNERS_BUCKET, LIVE_BUCKET, WATCHERS_BUCKET)


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


async def outcomes(url: str, timeout_s: float = 60.0) -> dict[str, object]:
    """Return how the matches on the results stream ended: finished, voided by reason.

    Right after a node was killed the cluster may answer 503 (no JetStream server to answer
    while a stream elects its leader), as the services meet it too (pulling.py): waited out.

    Raises:
        TimeoutError: when JetStream has not answered within ``timeout_s``.
    """
    nc = await nats.connect(url)
    try:
        async with asyncio.timeout(timeout_s):
            while True:
                try:
                    found = await read_results(nc.jetstream())
                    break
                except ServiceUnavailableError:
                    await asyncio.sleep(0.5)
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
