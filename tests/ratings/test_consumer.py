"""The results consumer against a real nats-server: dedupe, redelivery, malformed payloads."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import nats
import pytest
from nats.js import JetStreamContext
from prometheus_client import REGISTRY

from games.registry import SPIT
from services.common.results import declare
from services.ratings.consumer import consume
from services.ratings.faults import FaultPlan, Faults
from services.ratings.model import PlayerId
from services.ratings.store import Store
from services.stack.natsd import NatsServer
from tests.ratings.results import publish, void, win
from tests.waiting import poll_until
from wire.subjects import RATINGS_CONSUMER, RESULTS_FINISHED, RESULTS_STREAM

WAIT_S = 20.0


@pytest.fixture
async def js(nats_server: NatsServer) -> AsyncIterator[JetStreamContext]:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    await declare(js, ack_wait_s=1.0, durable=RATINGS_CONSUMER)
    yield js
    await connection.close()


@contextlib.asynccontextmanager
async def consuming(js: JetStreamContext, store: Store) -> AsyncIterator[None]:
    task = asyncio.create_task(consume(js, store, Faults(FaultPlan()), batch=8, idle_s=0.1))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def drained(js: JetStreamContext) -> None:
    """Return once the consumer has every message delivered and acked (or terminated)."""

    async def settled() -> bool:
        info = await js.consumer_info(RESULTS_STREAM, RATINGS_CONSUMER)
        return bool(info.num_pending == 0 and info.num_ack_pending == 0)

    await poll_until("every message delivered and acked or terminated", settled, WAIT_S)


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_a_result_published_twice_is_dropped_by_jetstream_and_counted_once(
    js: JetStreamContext, store: Store
) -> None:
    assert (await publish(js, win("m1", "ann", "bob"))).duplicate is None
    assert (await publish(js, win("m1", "ann", "bob"))).duplicate is True
    async with consuming(js, store):
        await drained(js)
    (ann,) = [e for e in await store.ladder(SPIT, 10) if e.standing.player_id == "ann"]
    assert ann.standing.games == 1


async def test_a_duplicate_past_the_dedupe_window_reaches_the_store_and_changes_nothing(
    js: JetStreamContext, store: Store
) -> None:
    duplicates = sample("pf_ratings_duplicates_total")
    await publish(js, win("m1", "ann", "bob"))
    # Another Nats-Msg-Id is what a resend after the window looks like to JetStream.
    assert (await publish(js, win("m1", "ann", "bob"), msg_id="m1-resent")).duplicate is None
    async with consuming(js, store):
        await drained(js)
    assert sample("pf_ratings_duplicates_total") == duplicates + 1
    assert len(await store.history(PlayerId("ann"), SPIT, 10)) == 1


async def test_voided_and_unrated_results_are_consumed_without_rating_changes(
    js: JetStreamContext, store: Store
) -> None:
    voided = sample("pf_ratings_results_total", kind="voided")
    await publish(js, void("m1", "ann", "bob"))
    await publish(js, win("m2", "ann", "bob", rated=False))
    async with consuming(js, store):
        await drained(js)
    assert await store.ladder(SPIT, 10) == ()
    assert len(await store.history(PlayerId("bob"), SPIT, 10)) == 2
    assert sample("pf_ratings_results_total", kind="voided") == voided + 1


async def test_a_malformed_payload_is_terminated_counted_and_does_not_block_the_rest(
    js: JetStreamContext, store: Store
) -> None:
    malformed = sample("pf_ratings_malformed_total", reason="undecodable")
    await js.publish(RESULTS_FINISHED, b"\xff\xff\xff", headers={"Nats-Msg-Id": "junk"})
    await publish(js, win("m1", "ann", "bob"))
    async with consuming(js, store):
        await drained(js)
    # Terminated, not merely unacked: nothing comes back after ack_wait. A result taken
    # after it and never acked does come back then, and an unacked junk message, due
    # earlier, would have come back first.
    await publish(js, win("m2", "cy", "dee"))
    sub = await js.pull_subscribe_bind(durable=RATINGS_CONSUMER, stream=RESULTS_STREAM)
    (taken,) = await sub.fetch(1, timeout=5)
    (back,) = await sub.fetch(1, timeout=WAIT_S)
    assert back.metadata.sequence.stream == taken.metadata.sequence.stream
    assert back.metadata.num_delivered == taken.metadata.num_delivered + 1
    await back.ack_sync()
    await sub.unsubscribe()
    info = await js.consumer_info(RESULTS_STREAM, RATINGS_CONSUMER)
    assert info.num_redelivered == 0 and info.num_ack_pending == 0
    assert sample("pf_ratings_malformed_total", reason="undecodable") == malformed + 1
    assert len(await store.ladder(SPIT, 10)) == 2


async def test_an_unacked_result_is_redelivered_after_ack_wait_and_counted_once(
    js: JetStreamContext, store: Store
) -> None:
    await publish(js, win("m1", "ann", "bob"))
    sub = await js.pull_subscribe_bind(durable=RATINGS_CONSUMER, stream=RESULTS_STREAM)
    (taken,) = await sub.fetch(1, timeout=5)  # a consumer that dies before storing
    await sub.unsubscribe()
    assert taken.metadata.num_delivered == 1
    async with consuming(js, store):
        await drained(js)
    assert [e.standing.games for e in await store.ladder(SPIT, 10)] == [1, 1]
