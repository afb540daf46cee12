"""The results consumer: fetch, decode, store in one transaction, and only then ack.

A crash before the commit loses nothing (JetStream redelivers after ``ack_wait``); a crash
after the commit and before the ack redelivers a result the store already holds, which
it recognises by match id and ignores. Malformed payloads are terminated, not retried.
"""

from __future__ import annotations

import logging
import time

from nats.aio.msg import Msg
from nats.js import JetStreamContext

from services.common.pulling import batches
from services.ratings import metrics
from services.ratings.codec import decode_result
from services.ratings.errors import Malformed
from services.ratings.faults import CrashPoint, Faults
from services.ratings.model import Recorded
from services.ratings.store import Store
from wire.subjects import RATINGS_CONSUMER, RESULTS_STREAM

log = logging.getLogger("ratings")


async def consume(
    js: JetStreamContext, store: Store, faults: Faults, batch: int, idle_s: float
) -> None:
    """Handle results from the ratings durable consumer until cancelled."""
    sub = await js.pull_subscribe_bind(durable=RATINGS_CONSUMER, stream=RESULTS_STREAM)
    try:
        async for messages in batches(sub, batch, idle_s):
            if not messages:
                metrics.PENDING.set((await sub.consumer_info()).num_pending or 0)
            for message in messages:
                await handle(message, store, faults)
    finally:
        await sub.unsubscribe()


async def handle(message: Msg, store: Store, faults: Faults) -> Recorded | None:
    """Store one message's result, then ack it; return what was done (None: malformed)."""
    faults.reached(CrashPoint.AFTER_FETCH)
    try:
        result = decode_result(message.subject, message.data)
    except Malformed as error:
        await _reject(message, error)
        return None
    meta = message.metadata
    started = time.perf_counter()
    # The stream's timestamp, not our clock: a redelivery carries the same instant.
    recorded = await store.record(result, meta.timestamp.timestamp())
    metrics.UPDATE_SECONDS.observe(time.perf_counter() - started)
    faults.reached(CrashPoint.AFTER_COMMIT)
    await message.ack()
    if recorded is Recorded.DUPLICATE:
        metrics.DUPLICATES.inc()
        log.info("duplicate result ignored", extra={"fields": {"match": result.match_id}})
    else:
        metrics.RESULTS.labels(recorded.value).inc()
    metrics.PENDING.set(meta.num_pending)
    return recorded


async def _reject(message: Msg, error: Malformed) -> None:
    metrics.MALFORMED.labels(error.reason.value).inc()
    log.warning(
        "malformed result terminated",
        extra={
            "fields": {
                "subject": message.subject,
                "stream_seq": message.metadata.sequence.stream,
                "reason": error.reason.value,
                "detail": error.detail,
            }
        },
    )
    await message.term()
