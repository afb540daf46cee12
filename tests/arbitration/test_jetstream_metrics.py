"""The arbitration's JetStream publishes (log appends, results) feed the publish metrics."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import cast

import nats
import nats.js.errors
import pytest
from prometheus_client import REGISTRY

from photofinish.events.v1 import events_pb2
from services.arbitration import publisher as publisher_module
from services.arbitration.match import Match
from services.arbitration.matchlog.writer import StreamStore
from services.arbitration.publisher import Publisher
from services.common.jetstream_config import log_stream_config, results_stream_config
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import NoResponders, Requests
from services.stack.natsd import NatsServer
from wire.subjects import LOG_STREAM, RESULTS_STREAM


def published(stream: str) -> tuple[float, float]:
    """Return (publishes acknowledged, publishes failed) of ``stream`` so far."""
    labels = {"stream": stream}
    return (
        REGISTRY.get_sample_value("pf_jetstream_publish_seconds_count", labels) or 0.0,
        REGISTRY.get_sample_value("pf_jetstream_publish_errors_total", labels) or 0.0,
    )


async def test_log_appends_are_timed_and_an_append_with_no_stream_counted(
    nats_server: NatsServer,
) -> None:
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    link = await NatsLink.connect(nats_server.url, "test-log")
    store = StreamStore(Requests(link), js)
    acked, failed = published(LOG_STREAM)

    with pytest.raises(NoResponders):  # no log stream yet: nobody answers the append
        await store.put("m-metrics", 0, b"header", 0)
    assert published(LOG_STREAM) == (acked, failed + 1)

    await js.add_stream(log_stream_config())
    seq = await store.put("m-metrics", 0, b"header", 0)
    await store.put("m-metrics", 1, b"next", seq)
    assert published(LOG_STREAM) == (acked + 2, failed + 1)
    await link.close()
    await nc.close()


async def test_a_result_publish_is_timed_and_a_failed_one_counted(
    nats_server: NatsServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    link = await NatsLink.connect(nats_server.url, "test-results")
    publisher = Publisher(link, js, time.monotonic_ns)
    match = cast(
        Match,
        SimpleNamespace(
            match_id="m-void", game=0, created=events_pb2.MatchCreated(), status=0, away=()
        ),
    )
    monkeypatch.setattr(publisher_module, "RESULT_RETRY_S", 0.05)  # one try, then up
    acked, failed = published(RESULTS_STREAM)

    with pytest.raises(nats.js.errors.NoStreamResponseError):  # no results stream yet
        await publisher.voided(match, "nats_disconnected", "")
    assert published(RESULTS_STREAM) == (acked, failed + 1)

    await js.add_stream(results_stream_config())
    await publisher.voided(match, "nats_disconnected", "")
    assert published(RESULTS_STREAM) == (acked + 1, failed + 1)
    assert (await js.stream_info(RESULTS_STREAM)).state.messages == 1
    await link.close()
    await nc.close()
