"""A pull consumer stops when its task is cancelled, every time, against a real nats-server.

nats-py loses a cancel that arrives as a fetch ends (Python 3.11's ``asyncio.wait_for``):
a loop of plain fetches, cancelled at a random instant 300 times, kept running 8 times.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import nats
import pytest
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js import JetStreamContext

from services.common.pulling import batches
from services.stack.natsd import NatsServer

CANCELS = 300
# Not a speed limit: a loop that lost its cancel never ends, one that did not ends at once.
HANG_S = 10.0


@pytest.fixture
async def js(nats_server: NatsServer) -> AsyncIterator[JetStreamContext]:
    connection: Client = await nats.connect(nats_server.url)
    js = connection.jetstream()
    await js.add_stream(name="T", subjects=["t.>"])
    await js.add_consumer("T", durable_name="reader", ack_wait=30)
    yield js
    await connection.close()


async def read(sub: JetStreamContext.PullSubscription, seen: list[Msg]) -> None:
    async for messages in batches(sub, 16, idle_s=0.01):
        for message in messages:
            seen.append(message)
            await message.ack()


async def stopped(reader: asyncio.Task[None]) -> bool:
    """Cancel ``reader``; return whether it ended as cancelled."""
    reader.cancel()
    await asyncio.wait({reader}, timeout=HANG_S)
    if not reader.done():
        reader.cancel()  # once more, so that the test run can end
        return False
    return reader.cancelled()


async def test_batches_yield_what_is_published(js: JetStreamContext) -> None:
    for number in range(3):
        await js.publish(f"t.{number}", str(number).encode())
    sub = await js.pull_subscribe_bind(durable="reader", stream="T")
    seen: list[Msg] = []
    reader = asyncio.create_task(read(sub, seen))
    async with asyncio.timeout(HANG_S):
        while len(seen) < 3:
            await asyncio.sleep(0.01)
    assert await stopped(reader)
    assert [m.data for m in seen] == [b"0", b"1", b"2"]


async def test_a_reader_cancelled_at_any_instant_stops(js: JetStreamContext) -> None:
    sub = await js.pull_subscribe_bind(durable="reader", stream="T")
    for _ in range(CANCELS):
        reader = asyncio.create_task(read(sub, []))
        await asyncio.sleep(random.uniform(0.0, 0.012))
        assert await stopped(reader), "a cancelled reader kept reading"


async def test_reading_goes_on_while_no_server_answers_for_the_consumer(
    js: JetStreamContext,
) -> None:
    """A 503 for a fetch (here: the consumer gone for a moment; in a cluster: its stream's
    leader being elected) is waited out, and what is published afterwards is read."""
    sub = await js.pull_subscribe_bind(durable="reader", stream="T")
    seen: list[Msg] = []
    reader = asyncio.create_task(read(sub, seen))
    await js.delete_consumer("T", "reader")
    await asyncio.sleep(0.1)  # some fetches meet no responder (not a wait for a condition)
    assert not reader.done(), reader
    await js.add_consumer("T", durable_name="reader", ack_wait=30)
    await js.publish("t.after", b"after")
    async with asyncio.timeout(HANG_S):
        while not seen:
            await asyncio.sleep(0.01)
    assert [message.data for message in seen] == [b"after"]
    assert await stopped(reader)
