"""NATS health as the services see it, for Prometheus: no NATS exporter runs beside them.

- ``pf_nats_connected{connection}``: 1 while a named connection is up, 0 while it is down
  or closed. nats-py's connections keep it through their callbacks (:func:`connect`), the
  hot path's link through its own state (:mod:`.natslink.link`).
- ``pf_jetstream_publish_seconds{stream}`` and ``pf_jetstream_publish_errors_total{stream}``:
  from a publish to the stream's acknowledgement, and the publishes that got none or a
  refusal; fed where the services publish to JetStream (the log's appends, the results).
  What a publish costs for them is a ``perf_counter`` pair and one observe (or one inc).
- ``pf_jetstream_consumer_pending{stream,consumer}``: the messages a durable consumer has
  not yet been given, read from its ``consumer_info`` every few seconds
  (:func:`sample_pending`), never per message.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import nats
import nats.aio.client
from nats.js import JetStreamContext
from prometheus_client import Counter, Gauge, Histogram

from services.common.metrics import LATENCY_BUCKETS_S
from services.common.natsurl import credentials_of
from wire.subjects import inboxes

T = TypeVar("T")
Callback = Callable[[], Awaitable[None]]

log = logging.getLogger(__name__)

CONNECTED = Gauge(
    "pf_nats_connected", "1 while the named NATS connection is up, 0 while not", ["connection"]
)
PUBLISH_SECONDS = Histogram(
    "pf_jetstream_publish_seconds",
    "From a publish to a JetStream stream to the stream's acknowledgement",
    ["stream"],
    buckets=LATENCY_BUCKETS_S,
)
PUBLISH_ERRORS = Counter(
    "pf_jetstream_publish_errors_total",
    "Publishes to a JetStream stream that got no acknowledgement or a refusal",
    ["stream"],
)
CONSUMER_PENDING = Gauge(
    "pf_jetstream_consumer_pending",
    "Messages of the stream a durable consumer has not been given yet (sampled)",
    ["stream", "consumer"],
)

PENDING_EVERY_S = 5.0
CALLBACKS = ("disconnected_cb", "reconnected_cb", "closed_cb")


async def connect(servers: str, name: str, **options: Any) -> nats.aio.client.Client:
    """Return ``nats.connect(servers, name=name, **options)`` whose state
    ``pf_nats_connected{connection=name}`` shows; callbacks given in ``options`` still run."""
    up = CONNECTED.labels(name)
    given: dict[str, Callback | None] = {key: options.pop(key, None) for key in CALLBACKS}

    def chained(key: str, state: int) -> Callback:
        then = given[key]

        async def callback() -> None:
            up.set(state)
            if then is not None:
                await then()

        return callback

    user, password = credentials_of(servers)
    if user:
        # Given as options, the credentials go to every server: nats-py dials the nodes a
        # cluster tells it of by address alone, which would refuse a client without them.
        options = {"user": user, "password": password, **options}
    connection = await nats.connect(
        servers,
        name=name,
        # Each user's answers come to inboxes only it may read (services/stack/natsauth.py).
        inbox_prefix=inboxes(user),
        disconnected_cb=chained("disconnected_cb", 0),
        reconnected_cb=chained("reconnected_cb", 1),
        closed_cb=chained("closed_cb", 0),
        **options,
    )
    up.set(1)
    return connection


class StreamPublishes:
    """One stream's publish metrics, labelled once (nothing looked up per publish)."""

    __slots__ = ("errors", "seconds")

    def __init__(self, stream: str) -> None:
        self.seconds = PUBLISH_SECONDS.labels(stream)
        self.errors = PUBLISH_ERRORS.labels(stream)

    async def timed(self, publish: Awaitable[T]) -> T:
        """Return what ``publish`` returns, its time observed; count it if it raises."""
        started = time.perf_counter()
        try:
            acked = await publish
        except Exception:
            self.errors.inc()
            raise
        self.seconds.observe(time.perf_counter() - started)
        return acked


async def sample_pending(
    js: JetStreamContext, stream: str, consumer: str, every_s: float = PENDING_EVERY_S
) -> None:
    """Keep ``pf_jetstream_consumer_pending`` of the durable ``consumer`` until cancelled.

    A sample that fails (JetStream unavailable) leaves the last one; the publish errors
    and ``pf_nats_connected`` say why. No error ends the loop: a metric is not worth the
    process.
    """
    pending = CONSUMER_PENDING.labels(stream, consumer)
    failing = False
    while True:
        try:
            info = await js.consumer_info(stream, consumer, timeout=every_s)
        except Exception as error:
            if not failing:  # once per failing spell, not every few seconds
                log.warning("consumer %s of %s not sampled: %r", consumer, stream, error)
            failing = True
        else:
            pending.set(info.num_pending or 0)
            failing = False
        await asyncio.sleep(every_s)
