"""NATS health as the services export it, against a real nats-server: connection state
through a server's loss and return, JetStream publishes timed and failed, consumer lag."""

from __future__ import annotations

import asyncio
import itertools
import socket
from pathlib import Path

import nats
import nats.js.errors
import pytest
from nats.js import api
from prometheus_client import REGISTRY

from services.common import natsmetrics, tasks
from services.common.natslink.link import NatsLink
from services.common.natsmetrics import StreamPublishes, sample_pending
from services.common.natsurl import servers_of
from services.common.results import declare
from services.stack import natsauth
from services.stack.natsd import NatsServer, start_nats
from tests.waiting import poll_until
from wire.subjects import RESULTS_FINISHED, RESULTS_STREAM

_names = itertools.count()


def unique(prefix: str) -> str:
    """Return a label value no other test uses (the registry is the process's)."""
    return f"{prefix}-{next(_names)}"


def free_port() -> int:
    """Return a loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


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


async def test_a_node_the_cluster_told_of_is_dialled_as_the_urls_user(tmp_path: Path) -> None:
    # A cluster tells its clients of the other nodes by address alone (INFO connect_urls):
    # a client failing over to one must still say who it is, or it is refused there.
    passwords = natsauth.new_passwords()
    routes = free_port(), free_port()
    nodes = []
    for index, port in enumerate(routes):
        cluster = (
            f"server_name: n{index}\ncluster {{name: pf, listen: 127.0.0.1:{port}, "
            f"routes: [{', '.join(f'nats://127.0.0.1:{p}' for p in routes)}]}}\n"
        )
        started = await start_nats(
            tmp_path / f"nats-{index}",
            authorization=natsauth.authorization() + cluster,
            secrets={natsauth.password_variable(u): p for u, p in passwords.items()},
        )
        nodes.append(started)
    try:
        second = servers_of(nodes[1].url)[0]
        url = natsauth.with_user(nodes[0].url, "gateway", passwords["gateway"])
        client = await natsmetrics.connect(
            url, unique("failover"), max_reconnect_attempts=-1, reconnect_time_wait=0.1
        )
        await poll_until("the other node is known", lambda: bool(client.discovered_servers))
        await nodes[0].stop()
        await poll_until(
            "connected to the other node",
            lambda: (
                client.is_connected
                and client.connected_url is not None
                and client.connected_url.port == second[1]
            ),
            timeout_s=10,
        )
        await client.close()
    finally:
        for node in nodes:
            await node.stop()


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
        await tasks.stop(sampler)  # a lone cancel may be lost in nats-py's wait_for
    await nc.close()


async def test_the_lag_sampler_outlives_a_consumer_it_cannot_read(
    nats_server: NatsServer,
) -> None:
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    sampler = asyncio.create_task(sample_pending(js, "PF_NO_SUCH", "nobody", every_s=0.02))
    await asyncio.sleep(0.1)
    assert not sampler.done()
    await tasks.stop(sampler)  # a lone cancel may be lost in nats-py's wait_for
    await nc.close()
