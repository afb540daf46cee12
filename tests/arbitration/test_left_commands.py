"""A command its owner stored and stopped before judging: the next owner judges it first."""

from __future__ import annotations

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration import record
from services.arbitration.left_commands import judge_left_command
from services.arbitration.match import Match
from services.arbitration.matchlog import entries
from services.arbitration.matchlog.writer import LogWriter, MemoryStore
from services.arbitration.takeover import fence
from services.common.matchlogs import Stored, in_order
from tests.arbitration.harness import Table

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
ACCEPTED, COMMAND = log_pb2.ENTRY_KIND_ACCEPTED, log_pb2.ENTRY_KIND_COMMAND


async def left_unjudged(table: Table, seat: int, command: game_pb2.Command) -> log_pb2.LogEntry:
    """Store ``seat``'s command as its owner does before the rules judge it, and stop there."""
    match = table.match
    item = table.submission(seat, command)
    entry = entries.command_entry(match, item, match.timing.deadline_ns())
    stored = await table.store.read(match.match_id)
    entry.index = len(stored.entries)
    await table.store.put(match.match_id, entry.index, entry.SerializeToString(), stored.last_seq)
    return entry


async def taken_over(table: Table) -> tuple[Match, list[log_pb2.LogEntry]]:
    writer = LogWriter(table.store, "successor")

    async def judge_left(match: Match, stored: Stored) -> Stored:
        return await judge_left_command(table.matches.rules, writer, match, stored)

    fenced = await fence(writer, table.match.match_id, "successor", lambda: 7, judge_left)
    assert fenced is not None
    return fenced.match, table.store.entries(table.match.match_id)


async def test_a_command_left_unjudged_is_judged_before_the_fence_which_carries_it() -> None:
    table = Table(game_pb2.GAME_BID, seed=5, store=MemoryStore())
    await table.open()
    await table.submit(0, READY)
    left = await left_unjudged(table, 1, READY)

    match, raw = await taken_over(table)
    assert [e.kind for e in raw][-2:] == [COMMAND, log_pb2.ENTRY_KIND_TAKEN_OVER]
    log = in_order(raw)
    assert [(e.index, e.kind) for e in log][1:] == [
        (1, ACCEPTED),
        (2, ACCEPTED),  # the left command, judged in its place
        (3, log_pb2.ENTRY_KIND_TAKEN_OVER),
    ]
    judged = log[2]
    assert (judged.seat, judged.client_seq, judged.arrival_us) == (
        1,
        left.client_seq,
        left.arrival_us,
    )
    assert log[3].version == judged.version == table.state().version  # the log reads in order
    answer = match.answer_to(1, left.client_seq)  # a retry of it is answered, not applied again
    assert isinstance(answer, arbitration_pb2.SubmitReply) and answer.seq == judged.seq
    rebuilt = record.rebuilt(log)
    assert rebuilt is not None and (rebuilt.seq, rebuilt.version) == (match.seq, match.version)
    await table.close()


async def test_a_command_left_unjudged_that_the_rules_refuse_is_refused_in_its_place() -> None:
    table = Table(game_pb2.GAME_BID, seed=6, store=MemoryStore())
    await table.open()
    await table.submit(0, READY)
    again = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
    left = await left_unjudged(table, 0, again)  # seat 0 pressed already

    match, raw = await taken_over(table)
    log = in_order(raw)
    judged = log[left.index]
    assert (judged.kind, judged.client_seq) == (log_pb2.ENTRY_KIND_REFUSED, left.client_seq)
    assert log[-1].kind == log_pb2.ENTRY_KIND_TAKEN_OVER
    assert match.version == table.state().version == log[1].version  # nothing changed
    await table.close()
