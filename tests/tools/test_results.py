"""The results stream read whole, against a real nats-server: every result, finished or
voided, as the arbitration publishes them, and nothing more."""

from __future__ import annotations

import nats
import pytest

from services.common.results import declare_stream
from services.stack.natsd import NatsServer
from tests.ratings.results import publish, void, win
from tools.results import Result, read_results

pytestmark = pytest.mark.asyncio


async def test_every_result_on_the_stream_is_read_by_match(nats_server: NatsServer) -> None:
    connection = await nats.connect(nats_server.url)
    try:
        js = connection.jetstream()
        await declare_stream(js)
        assert await read_results(js) == {}
        # More than one fetch's worth, so the reading goes on past its first batch.
        for number in range(300):
            await publish(js, win(f"m{number}", "ann", "bob", winner_seat=number % 2))
        await publish(js, void("v1", "ann", "bob"))
        await publish(js, win("m0", "ann", "bob"))  # a duplicate: the stream keeps one

        found = await read_results(js)
    finally:
        await connection.close()
    assert len(found) == 301
    assert found["m1"] == Result("m1", ("bob", "ann"), False, rated=True, winner=1)
    assert found["v1"] == Result(
        "v1", ("ann", "bob"), True, reason="event_loop_lag", figures="lag 31 ms"
    )
