"""The log's writer: in order, each entry once, stored before anything of it is shown, fenced."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import grpc
import nats
import pytest

from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration.matchlog import entries
from services.arbitration.matchlog.writer import (
    LogWriter,
    MemoryStore,
    SentCommand,
    StreamStore,
    Superseded,
)
from services.arbitration.takeover import FENCE_ATTEMPTS, fence
from services.common.jetstream_config import log_stream_config
from services.common.matchlogs import Stored
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import Requests
from services.common.rejection import Rejection
from services.stack.natsd import NatsServer
from tests.arbitration.harness import Table
from wire import subjects

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))


class FlakyStore(MemoryStore):
    """Fails the first ``failures`` appends, as a NATS outage would."""

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures
        self.attempts = 0

    async def put(
        self, match_id: str, index: int, data: bytes, after_seq: int, key: str = ""
    ) -> int:
        self.attempts += 1
        if self.failures > 0:
            self.failures -= 1
            raise OSError("no route to the stream")
        return await super().put(match_id, index, data, after_seq, key)


class SlowStore(MemoryStore):
    """Acknowledges each append only when the test lets it."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def put(
        self, match_id: str, index: int, data: bytes, after_seq: int, key: str = ""
    ) -> int:
        await self.gate.wait()
        return await super().put(match_id, index, data, after_seq, key)


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


async def test_nothing_of_a_command_is_shown_or_answered_before_its_entry_is_stored() -> None:
    store = SlowStore()
    store.gate.set()
    table = await opened_table(store)
    store.gate.clear()
    shown = len(table.outbox.sent)
    submit = asyncio.create_task(table.submit(0, READY))
    await asyncio.sleep(0.05)
    assert not submit.done() and table.answers == []
    assert len(table.outbox.sent) == shown and table.match.seq == 0
    store.gate.set()
    reply = await asyncio.wait_for(submit, 5)
    assert reply.seq == 1  # type: ignore[union-attr]
    assert len(table.outbox.sent) == shown + 1 and len(await table.log()) == 2
    await table.close()


async def test_the_result_waits_for_the_log_to_be_stored() -> None:
    store = SlowStore()
    store.gate.set()
    table = await opened_table(store)
    await table.submit(0, READY)
    await table.submit(1, READY)
    store.gate.clear()
    flag = asyncio.create_task(table.flag())
    await asyncio.sleep(0.05)
    assert not flag.done() and table.outbox.results == []
    store.gate.set()
    await asyncio.wait_for(flag, 5)
    assert table.outbox.results == [("finished", len(store.logs[table.match.match_id]))]
    await table.close()


async def test_a_match_is_closed_once() -> None:
    table = await opened_table(MemoryStore())
    await table.submit(0, READY)
    await table.submit(1, READY)
    await table.flag()
    await table.submit(0, READY)  # after the end: answered match_over, nothing logged
    closing = [e for e in await table.log() if e.kind == log_pb2.ENTRY_KIND_FINISHED]
    assert len(closing) == 1 and table.match.closed
    assert len(table.outbox.results) == 1
    await table.close()


async def test_a_match_taken_over_continues_its_log_after_the_last_stored_entry() -> None:
    store = MemoryStore()
    table = await opened_table(store)
    await table.submit(0, READY)
    match_id = table.match.match_id
    successor = LogWriter(store, "successor")  # another instance, which did not open it
    successor.resume(match_id, await successor.read(match_id))
    await successor.append(table.match, entries.taken_over_entry(table.match, "successor", 7))
    assert [e.index for e in store.entries(match_id)] == [0, 1, 2]
    await table.close()


async def test_an_owner_that_was_taken_over_is_fenced_off_and_shows_nothing() -> None:
    store = MemoryStore()
    table = await opened_table(store)
    await table.submit(0, READY)
    match_id = table.match.match_id
    successor = LogWriter(store, "successor")
    successor.resume(match_id, await successor.read(match_id))
    await successor.append(table.match, entries.taken_over_entry(table.match, "successor", 7))
    shown = len(table.outbox.sent)
    table.match.queue.put_nowait(table.submission(1, READY))  # its worker takes it
    for _ in range(100):
        if len(table.answers) == 2:
            break
        await asyncio.sleep(0.01)
    answer = table.answers[-1]
    assert isinstance(answer, Rejection) and answer.reason == "match_moved"
    assert table.matches.find(match_id) is None  # the worker ended: the match is let go
    assert len(table.outbox.sent) == shown
    assert [e.kind for e in store.entries(match_id)][-1] == log_pb2.ENTRY_KIND_TAKEN_OVER
    await table.close()


class OwnerWakesAtRead(MemoryStore):
    """The old owner, woken from a stall, appends right after the successor's first read,
    as it may before it sees that the match moved: ``wake`` is its append."""

    def __init__(self) -> None:
        super().__init__()
        self.wake: Callable[[], Awaitable[None]] | None = None

    async def read(self, match_id: str) -> Stored:
        stored = await super().read(match_id)
        if self.wake is not None:
            wake, self.wake = self.wake, None
            await wake()
        return stored


async def test_a_takeover_fences_after_what_the_woken_owner_appended_meanwhile() -> None:
    store = OwnerWakesAtRead()
    table = await opened_table(store)
    await table.submit(0, READY)
    match_id = table.match.match_id

    async def old_owner_appends() -> None:
        await table.submit(1, READY)

    store.wake = old_owner_appends
    fenced = await fence(LogWriter(store, "successor"), match_id, "successor", lambda: 7)
    kinds = [e.kind for e in store.entries(match_id)]
    # The old owner's Ready stands (its players saw it); the fence comes after it, once.
    assert kinds == [
        log_pb2.ENTRY_KIND_OPENED,
        log_pb2.ENTRY_KIND_ACCEPTED,
        log_pb2.ENTRY_KIND_ACCEPTED,
        log_pb2.ENTRY_KIND_TAKEN_OVER,
    ]
    assert fenced is not None and fenced.match.seq == table.match.seq
    assert [e.index for e in fenced.stored.entries] == [0, 1, 2]
    await table.close()


async def test_a_takeover_gives_up_while_the_log_keeps_moving() -> None:
    store = OwnerWakesAtRead()
    table = await opened_table(store)
    match_id = table.match.match_id

    async def old_owner_appends() -> None:
        store.wake = old_owner_appends  # at every read: an owner that never lets go
        moved = entries.taken_over_entry(table.match, "old-owner", 5)
        await table.log_writer.append(table.match, moved)

    store.wake = old_owner_appends
    with pytest.raises(Superseded):
        await fence(LogWriter(store, "successor"), match_id, "successor", lambda: 7)
    assert len(store.entries(match_id)) == 1 + FENCE_ATTEMPTS  # the successor added none
    await table.close()


async def test_a_match_being_taken_over_here_is_unavailable_for_a_moment_not_unknown() -> None:
    """From its claim until it is held, the gateway already routes the match here: a
    player's stream must be told to come back, not that the match does not exist."""
    table = await opened_table(MemoryStore())
    with table.matches.arriving("adopted"), pytest.raises(Rejection) as arriving:
        table.matches.get("adopted")
    assert (arriving.value.code, arriving.value.reason) == (
        grpc.StatusCode.UNAVAILABLE,
        "match_arriving",
    )
    with pytest.raises(Rejection) as unknown:
        table.matches.get("adopted")
    assert (unknown.value.code, unknown.value.reason) == (
        grpc.StatusCode.NOT_FOUND,
        "unknown_match",
    )
    await table.close()


async def test_an_append_waited_for_leaves_at_once_on_a_link_that_holds_its_writes(
    nats_server: NatsServer,
) -> None:
    nc = await nats.connect(nats_server.url)
    js = nc.jetstream()
    await js.add_stream(log_stream_config())
    # Held an hour with the messages that follow, an append would time out unsent.
    link = await NatsLink.connect(nats_server.url, "test-held", coalesce_s=3600.0)
    try:
        store = StreamStore(Requests(link), js)
        seq = await store.put("m-held", 0, b"header", 0)
        assert await store.put("m-held", 1, b"next", seq) == seq + 1
        command = SentCommand("m-held", 2, subjects.match_commands("rules-1", "m-held"), b"c", {})
        await store.put_command(command, seq + 1)  # raises unless stored
    finally:
        await link.close()
        await nc.close()
