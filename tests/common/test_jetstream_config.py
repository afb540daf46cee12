"""The log stream's limits and retention on a real nats-server: declared, brought to an
existing stream on start, and never refusing an append when a limit is reached."""

from __future__ import annotations

import nats
from nats.js import api

from services.common.jetstream_config import LogLimits, declared_stream, log_stream_config
from services.stack.natsd import NatsServer
from wire.subjects import LOG_STREAM, match_log

DAY_S = 86400.0


async def test_the_log_stream_is_declared_with_its_limits_and_drops_the_oldest(
    nats_server: NatsServer,
) -> None:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    info = await declared_stream(js, log_stream_config())
    config = info.config
    assert (config.max_age, config.max_bytes) == (90 * DAY_S, 4 << 30)
    assert config.max_msgs_per_subject == 20_000
    assert config.discard == api.DiscardPolicy.OLD
    assert config.storage == api.StorageType.FILE
    assert (await declared_stream(js, log_stream_config())).config == config  # again: the same
    await connection.close()


async def test_an_existing_log_stream_takes_the_limits_and_keeps_its_entries(
    nats_server: NatsServer,
) -> None:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    unlimited = api.StreamConfig(  # as the stream was declared before it had limits
        name=LOG_STREAM,
        subjects=["pf.log.>"],
        storage=api.StorageType.FILE,
        duplicate_window=120.0,
    )
    await js.add_stream(unlimited)
    for index in range(3):
        await js.publish(match_log("m1"), b"%d" % index)
    limits = LogLimits(max_age_days=30, max_bytes=1 << 30, entries_per_match=500)
    info = await declared_stream(js, log_stream_config(limits))
    assert (info.config.max_age, info.config.max_bytes) == (30 * DAY_S, 1 << 30)
    assert info.config.max_msgs_per_subject == 500
    assert info.state.messages == 3
    await connection.close()


async def test_a_match_at_its_limit_loses_its_oldest_entries_and_is_never_refused(
    nats_server: NatsServer,
) -> None:
    # The arbitration ends a match before its log gets here (matchlog/bounds.py); were it
    # to get here, an append is stored all the same and no live match waits for room.
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    limits = LogLimits(entries_per_match=100)
    await declared_stream(js, log_stream_config(limits))
    for index in range(105):
        ack = await js.publish(match_log("m1"), b"%d" % index)
        assert ack.seq == index + 1
    await js.publish(match_log("m2"), b"0")
    state = (await js.stream_info(LOG_STREAM)).state
    assert state.messages == 101  # m1's last 100 and m2's one
    assert (await js.get_msg(LOG_STREAM, subject=match_log("m1"), seq=1, next=True)).seq == 6
    await connection.close()
