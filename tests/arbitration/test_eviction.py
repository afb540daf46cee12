"""Finished matches are let go after a while, even when the stores fail to forget them."""

from __future__ import annotations

import asyncio

from photofinish.arbitration.v1 import snapshot_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration.eviction import evict_finished
from services.common import tasks
from tests.arbitration.harness import Table

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))


class ForgetFails:
    """A snapshot store whose deletes fail, as during a NATS outage."""

    def __init__(self) -> None:
        self.forgets = 0

    async def save(self, snapshot: snapshot_pb2.MatchSnapshot, revision: int) -> int:
        return revision + 1

    async def forget(self, match_id: str) -> None:
        self.forgets += 1
        raise OSError("no route to the bucket")


async def test_a_failed_forget_does_not_stop_the_eviction() -> None:
    table = Table(game_pb2.GAME_BID, 9)
    await table.open()
    store = ForgetFails()
    table.matches.store = store  # type: ignore[assignment]
    await table.submit(0, READY)
    await table.submit(1, READY)
    await table.flag()
    assert table.match.is_over()
    evictor = asyncio.create_task(evict_finished(table.matches, keep_s=0.01))
    for _ in range(200):
        if store.forgets:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # a few more rounds
    assert table.matches.find(table.match.match_id) is None
    assert store.forgets == 1
    assert not evictor.done()  # still looking for the next finished match
    await tasks.stop(evictor)
    await table.close()
