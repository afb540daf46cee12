"""Declaring the results stream and the ratings consumer, including on a differing stream."""

from __future__ import annotations

import nats
import pytest
from nats.js import api

from services.common.jetstream_config import results_stream_config
from services.common.results import StreamConflict, declare, matches
from services.stack.natsd import NatsServer
from wire.subjects import RATINGS_CONSUMER, RESULTS_STREAM


@pytest.mark.parametrize(
    ("pattern", "subject", "expected"),
    [
        ("pf.results.>", "pf.results.finished", True),
        ("pf.results.*", "pf.results.voided", True),
        ("pf.results.finished", "pf.results.finished", True),
        ("pf.results.finished", "pf.results.voided", False),
        ("pf.>", "pf", False),
        ("pf.results.*", "pf.results.finished.extra", False),
        ("pf.results", "pf.results.finished", False),
    ],
)
def test_subject_patterns_match_as_nats_matches_them(
    pattern: str, subject: str, expected: bool
) -> None:
    assert matches(pattern, subject) is expected


async def test_declaring_twice_is_harmless_and_updates_the_ack_wait(
    nats_server: NatsServer,
) -> None:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    await declare(js, ack_wait_s=10.0, durable=RATINGS_CONSUMER)
    await declare(js, ack_wait_s=2.0, durable=RATINGS_CONSUMER)
    info = await js.consumer_info(RESULTS_STREAM, RATINGS_CONSUMER)
    assert info.config.ack_wait == 2.0
    await connection.close()


async def test_a_stream_differing_only_in_settings_is_used_as_it_is(
    nats_server: NatsServer,
) -> None:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    other = results_stream_config()
    other.duplicate_window = 600.0
    await js.add_stream(other)
    await declare(js, ack_wait_s=1.0, durable=RATINGS_CONSUMER)
    assert (await js.stream_info(RESULTS_STREAM)).config.duplicate_window == 600.0
    await connection.close()


async def test_a_stream_missing_the_results_subjects_is_refused_clearly(
    nats_server: NatsServer,
) -> None:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    await js.add_stream(api.StreamConfig(name=RESULTS_STREAM, subjects=["pf.results.finished"]))
    with pytest.raises(StreamConflict, match=r"pf\.results\.voided"):
        await declare(js, ack_wait_s=1.0, durable=RATINGS_CONSUMER)
    await connection.close()
