"""NATS health as the services export it, against a real nats-server: connection state
through a server's loss and return, JetStream publishes timed and failed, consumer lag."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from pathlib import Path

import nats
import nats.js.errors
import pytest
from nats.js import api
from prometheus_client import REGISTRY

from services.common import natsmetrics
from services.common.natslink.link import NatsLink
from services.common.natsmetrics import StreamPublishes, sample_pending
from services.common.results import declare
from services.stack.natsd import NatsServer, start_nats
from tests.waiting import poll_until
from wire.subjects import RESULTS_FINISHED, RESULTS_STREAM

_names = itertools.count()


def unique(prefix: str) -> str:
    """Return a label value no other test uses (the registry is the process's)."""
    return f"{prefix}-{next(_names)}"


def connected(name: str) -> float | None:
    return REGISTRY.get_sample_value("pf_nats_connected", {"connection": name})


def sample(name: str, labels: dict[str, str]) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_connected_goes_to_0_while_the_server_is_gone_and_back_to_1(
    tmp_path: Path,
) -> None:
    server = await start_nats(tmp_path / "nats")
    port = int(server.url.rsplit(":", 1)[1])
    client_name, link_name = unique("client"), unique("link")
    given: list[str] = []  # a service's own callbacks still run

    async def disconnected() -> None:
        given.append("down")

    async def reconnected() -> None:
        given.append("up")

    client = await natsmetrics.connect(
        server.url,
        client_name,
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.1,
        disconnected_cb=disconnected,
        reconnected_cb=reconnected,
    )
    link = await NatsLink.connect(server.url, link_name)
    assert (connected(client_name), connected(link_name)) == (1, 1)

    await server.stop()
    await poll_until(
        "both read as down", lambda: (connected(client_name), connected(link_name)) == (0, 0)
    )
    assert given == ["down"]

    server = await start_nats(tmp_path / "nats", port=port)
    try:
        await poll_until(
            "both read as up again",
            lambda: (connected(client_name), connected(link_name)) == (1, 1),
            timeout_s=10,
        )
        assert given == ["down", "up"]
        await link.close()
        await client.close()
        assert (connected(client_name), connected(link_name)) == (0, 0)
    finally:
        await server.stop()


async def test_a_publish_is_timed_and_a_publish_nobody_stores_counted(
    nats_server: NatsServer,
) -> None:
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    stream = unique("PF_TEST")
    await js.add_stream(api.StreamConfig(name=stream, subjects=[f"{stream}.>"]))
    publishes = StreamPublishes(stream)
    labels = {"stream": stream}

    ack = await publishes.timed(js.publish(f"{stream}.a", b"x"))
    assert ack.seq == 1
    assert sample("pf_jetstream_publish_seconds_count", labels) == 1
    assert 0 < sample("pf_jetstream_publish_seconds_sum", labels) < 5
    assert sample("pf_jetstream_publish_errors_total", labels) == 0

    await js.delete_stream(stream)  # its subjects are nobody's now
    with pytest.raises(nats.js.errors.NoStreamResponseError):
        await publishes.timed(js.publish(f"{stream}.a", b"x"))
    assert sample("pf_jetstream_publish_errors_total", labels) == 1
    assert sample("pf_jetstream_publish_seconds_count", labels) == 1
    await nc.close()


async def test_the_lag_gauge_is_the_consumer_s_own_pending_count(
    nats_server: NatsServer,
) -> None:
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    durable = unique("lagging")
    await declare(js, 30.0, durable)
    for i in range(7):
        await js.publish(RESULTS_FINISHED, f"result {i}".encode(), headers={"Nats-Msg-Id": str(i)})
    labels = {"stream": RESULTS_STREAM, "consumer": durable}

    async def pending() -> int:
        return (await js.consumer_info(RESULTS_STREAM, durable)).num_pending or 0

    sampler = asyncio.create_task(sample_pending(js, RESULTS_STREAM, durable, every_s=0.05))
    try:
        assert await pending() == 7
        await poll_until(
            "the gauge reads 7", lambda: sample("pf_jetstream_consumer_pending", labels) == 7
        )
        sub = await js.pull_subscribe_bind(durable=durable, stream=RESULTS_STREAM)
        for message in await sub.fetch(3, timeout=2):
            await message.ack()
        assert await pending() == 4
        await poll_until(
            "the gauge follows the consumer",
            lambda: sample("pf_jetstream_consumer_pending", labels) == 4,
        )
        await sub.unsubscribe()
    finally:
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler
    await nc.close()


async def test_the_lag_sampler_outlives_a_consumer_it_cannot_read(
    nats_server: NatsServer,
) -> None:
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    sampler = asyncio.create_task(sample_pending(js, "PF_NO_SUCH", "nobody", every_s=0.02))
    await asyncio.sleep(0.1)
    assert not sampler.done()
    sampler.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await sampler
    await nc.close()
