"""Finished matches are let go after a while, even when their owner records fail to go."""

from __future__ import annotations

import asyncio

from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration.eviction import evict_finished
from services.common import tasks
from tests.arbitration.harness import Table
from tests.waiting import poll_until

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))


class ReleaseFails:
    """Owner records whose deletes fail, as during a NATS outage."""

    def __init__(self) -> None:
        self.forgotten: list[str] = []  # every match id a delete was tried for, in order

    async def claim_new(self, match_id: str) -> None:
        return None

    async def release(self, match_id: str) -> None:
        self.forgotten.append(match_id)
        raise OSError("no route to the bucket")


async def finish(table: Table, clock: Table | None = None) -> str:
    """Open the table's match and end it on a flag; return its id. ``clock``: the table
    whose clock the instance reads, when not this one's."""
    await table.open()
    await table.submit(0, READY)
    await table.submit(1, READY)
    deadline = table.match.timing.deadline_ns()
    assert deadline is not None
    clock = clock or table
    clock.now_ns = max(clock.now_ns, deadline)  # the flag falls at the deadline, not before
    await table.flag()
    assert table.match.is_over()
    return table.match.match_id


async def test_a_failed_forget_does_not_stop_the_eviction() -> None:
    table = Table(game_pb2.GAME_BID, 9)
    store = ReleaseFails()
    table.matches.placement = store  # type: ignore[assignment]
    first = await finish(table)
    table.now_ns += 10**9  # the registry's clock: the finished match is past keep_s
    evictor = asyncio.create_task(evict_finished(table.matches, keep_s=0.01))
    await poll_until("the finished match's delete is tried", lambda: store.forgotten)
    assert table.matches.find(first) is None
    # The eviction goes on past the failure: a match finished after it is let go as well,
    # and none of the rounds between tried the first match again.
    later = Table(game_pb2.GAME_BID, 10)
    later.matches = table.matches  # a second match on the same instance, on its clock
    later.now_ns = table.now_ns
    second = await finish(later, clock=table)
    table.now_ns = later.now_ns + 10**9
    await poll_until("the later match's delete is tried", lambda: len(store.forgotten) > 1)
    assert store.forgotten == [first, second]
    assert table.matches.find(second) is None
    assert not evictor.done()  # still looking for the next finished match
    await tasks.stop(evictor)
    await table.close()
