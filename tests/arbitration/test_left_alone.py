"""A match against the computer or on one device that its person left ends by itself: a
VOIDED entry of kind ``abandoned`` (no result, no rating), the void published like any
end, and the update says why; a takeover gives the person the whole limit again."""

from __future__ import annotations

import pytest

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2, spit_pb2
from services.arbitration import record
from services.arbitration.attendance import ABANDONED_AFTER_S
from services.arbitration.publisher import build_update
from tests.arbitration.harness import Table

S = 1_000_000_000
LIMIT_NS = int(ABANDONED_AFTER_S * S)
READY = game_pb2.Command(spit=spit_pb2.SpitCommand(ready=spit_pb2.SpitReady()))


async def opened(mode: events_pb2.Mode.ValueType) -> Table:
    table = Table(game_pb2.GAME_SPIT, 5)
    table.created.mode = mode
    if mode == events_pb2.MODE_COMPUTER:
        table.created.players[1].bot = True
    await table.open()
    return table


async def swept_at(table: Table, now_ns: int) -> None:
    """Move the clock to ``now_ns``, sweep, and judge what the sweep queued (taken from the
    queue before the match's worker runs, as the harness judges every item itself)."""
    table.now_ns = now_ns
    table.matches.attendance.sweep()
    items = []
    while not table.match.queue.empty():
        items.append(table.match.queue.get_nowait())
    for item in items:
        await table.matches._worker.handle(table.match, item)


@pytest.mark.parametrize("mode", [events_pb2.MODE_COMPUTER, events_pb2.MODE_HOTSEAT])
async def test_a_match_left_alone_for_the_limit_ends_voided_with_no_result(
    mode: events_pb2.Mode.ValueType,
) -> None:
    table = await opened(mode)
    opened_ns = table.match.opened_ns
    await swept_at(table, opened_ns + LIMIT_NS - 1)
    assert not table.match.is_over() and table.outbox.results == []
    await swept_at(table, opened_ns + LIMIT_NS)
    match = table.match
    assert match.status == arbitration_pb2.STATUS_VOIDED and match.outcome is None
    log = await table.log()
    end = log[-1]
    assert end.kind == log_pb2.ENTRY_KIND_VOIDED and end.seat == -1
    assert end.reason == "abandoned" and end.last_seen_us == 0
    assert end.void_reason == "abandoned: nobody played or watched the match for 600 s"
    assert end.seq == match.seq and end.state_sha256 == table.state_sha256()
    assert table.outbox.results == [("voided", len(log))]  # published once the log holds it
    shown = build_update(match, 0, table.now_ns)
    assert shown.status == arbitration_pb2.STATUS_VOIDED
    assert shown.void_kind == "abandoned" and not shown.HasField("outcome")
    await table.close()


async def test_a_computer_match_whose_person_plays_on_is_not_ended() -> None:
    table = await opened(events_pb2.MODE_COMPUTER)
    opened_ns = table.match.opened_ns
    table.now_ns = opened_ns + LIMIT_NS - S
    await table.submit(0, READY)  # the person is heard from
    await swept_at(table, opened_ns + LIMIT_NS + S)
    assert not table.match.is_over()
    await swept_at(table, opened_ns + 2 * LIMIT_NS)
    assert table.match.void_kind == "abandoned"
    await table.close()


async def test_a_match_taken_over_gives_its_person_the_whole_limit_from_the_takeover() -> None:
    table = await opened(events_pb2.MODE_HOTSEAT)
    match_id, opened_ns = table.match.match_id, table.match.opened_ns
    taken_ns = opened_ns + LIMIT_NS - S  # unheard nearly the whole limit on the old owner
    table.now_ns = taken_ns
    table.matches.let_go(match_id)
    stored = await table.log_writer.read(match_id)
    match = record.rebuilt(stored.entries)
    assert match is not None
    table.log_writer.resume(match_id, stored)
    table.matches.hold(match)
    table._match = match
    await swept_at(table, taken_ns + LIMIT_NS - 1)
    assert not match.is_over()
    await swept_at(table, taken_ns + LIMIT_NS)
    assert match.void_kind == "abandoned"
    await table.close()
