"""A result published while its stream cannot take it is stored once the stream can (a
real nats-server: the stream is missing for a moment, as a stream without a leader
answers), and an error that no retry mends goes up at once."""

from __future__ import annotations

import asyncio

import nats
import nats.js.errors
import pytest
from nats.js import api

from services.common.jetstream_config import results_stream_config
from services.common.jsretry import until_done
from services.stack.natsd import NatsServer
from wire.subjects import RESULTS_FINISHED, RESULTS_STREAM


async def test_a_publish_is_tried_again_until_the_stream_takes_it_and_stored_once(
    nats_server: NatsServer,
) -> None:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    try:

        async def stream_back_later() -> None:
            await asyncio.sleep(0.5)
            await js.add_stream(results_stream_config())

        coming = asyncio.create_task(stream_back_later())
        for _ in range(2):  # the second is a resend: the message id drops it
            ack = await until_done(
                "a result",
                lambda: js.publish(RESULTS_FINISHED, b"r", headers={"Nats-Msg-Id": "m1"}),
                within_s=30,
            )
            assert ack.stream == RESULTS_STREAM
        await coming
        info = await js.stream_info(RESULTS_STREAM)
        assert info.state.messages == 1
    finally:
        await connection.close()


async def test_an_error_no_retry_mends_goes_up_at_once(nats_server: NatsServer) -> None:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    try:
        await js.add_stream(results_stream_config())
        calls = 0

        async def wrong_stream() -> api.PubAck:
            nonlocal calls
            calls += 1
            return await js.publish(RESULTS_FINISHED, b"r", stream="no_such_stream")

        with pytest.raises(nats.js.errors.Error):
            await until_done("a result", wrong_stream, within_s=30)
        assert calls == 1
    finally:
        await connection.close()
