"""The log's writer: in order, each entry once, stored before a result goes out."""

from __future__ import annotations

import asyncio

from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration.matchlog.writer import LogWriter, MemoryStore
from tests.arbitration.harness import Table

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))


class FlakyStore(MemoryStore):
    """Fails the first ``failures`` appends, as a NATS outage would."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.attempts = 0

    async def put(self, match_id: str, index: int, data: bytes) -> None:
        self.attempts += 1
        if self.failures > 0:
            self.failures -= 1
            raise OSError("no route to the stream")
        await super().put(match_id, index, data)


class SlowStore(MemoryStore):
    """Acknowledges each append only when the test lets it."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def put(self, match_id: str, index: int, data: bytes) -> None:
        await self.gate.wait()
        await super().put(match_id, index, data)


async def opened_table(store: MemoryStore) -> Table:
    table = Table(game_pb2.GAME_BID, 9, store=store)
    await table.open()
    return table


async def test_entries_are_stored_in_order_and_once_across_failed_appends() -> None:
    store = FlakyStore(failures=3)
    table = await opened_table(store)
    await table.submit(0, READY)
    await table.submit(1, READY)
    log = await table.log()
    assert [e.index for e in log] == [0, 1, 2]
    assert [e.kind for e in log] == [
        log_pb2.ENTRY_KIND_OPENED,
        log_pb2.ENTRY_KIND_ACCEPTED,
        log_pb2.ENTRY_KIND_ACCEPTED,
    ]
    assert store.attempts == 3 + 3
    await table.close()


async def test_a_command_is_answered_before_its_entry_is_stored() -> None:
    store = SlowStore()
    table = await opened_table(store)
    reply = await asyncio.wait_for(table.submit(0, READY), 5)
    assert reply.seq == 1  # type: ignore[union-attr]
    assert store.logs == {}
    store.gate.set()
    assert len(await table.log()) == 2
    await table.close()


async def test_the_result_waits_for_the_log_to_be_stored() -> None:
    store = SlowStore()
    table = await opened_table(store)
    await table.submit(0, READY)
    await table.submit(1, READY)
    flag = asyncio.create_task(table.flag())
    await asyncio.sleep(0.05)
    assert not flag.done() and table.outbox.results == []
    store.gate.set()
    await asyncio.wait_for(flag, 5)
    assert table.outbox.results == [("finished", len(store.logs[table.match.match_id]))]
    await table.close()


async def test_a_match_is_sealed_once() -> None:
    table = await opened_table(MemoryStore())
    await table.submit(0, READY)
    await table.submit(1, READY)
    await table.flag()
    assert not await table.log_writer.seal(table.match)
    closing = [e for e in await table.log() if e.kind == log_pb2.ENTRY_KIND_FINISHED]
    assert len(closing) == 1
    await table.close()


async def test_closing_stores_what_is_waiting() -> None:
    store = SlowStore()
    table = await opened_table(store)
    await table.submit(0, READY)
    store.gate.set()
    await table.log_writer.close()
    assert len(store.logs[table.match.match_id]) == 2
    await table.close()


async def test_a_match_taken_over_continues_its_log_after_the_last_stored_entry() -> None:
    store = MemoryStore()
    table = await opened_table(store)
    await table.submit(0, READY)
    await table.log()
    successor = LogWriter(store, "successor")  # another instance, which did not open it
    successor.nudged(table.match)
    await successor.flush(table.match.match_id)
    assert [e.index for e in store.entries(table.match.match_id)] == [0, 1, 2]
    await table.close()
