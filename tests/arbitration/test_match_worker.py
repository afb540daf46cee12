"""The match's worker as a loop: one reading of the clock per item, every entry of that
item stamped with it, whatever the item's work takes (a rules call, a log store)."""

from __future__ import annotations

import pytest

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration.faults import Tolerances
from services.common.rejection import Rejection
from tests.arbitration.harness import Table

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
TICK_NS = 1_000_000  # the clock moves a millisecond between two readings


async def bid_clock_running(table: Table) -> int:
    """Open the table's Bid match, both seats ready; return the seat whose clock runs."""
    await table.open()
    await table.submit(0, READY)
    await table.submit(1, READY)
    (seat,) = table.match.decision.seats
    return seat


async def test_a_late_flag_records_its_fault_and_the_void_at_the_same_instant() -> None:
    # Each reading of this clock is a millisecond after the one before: a worker that read
    # it again for each entry would stamp the fault and the void apart.
    table = Table(
        game_pb2.GAME_BID,
        5,
        rated=True,
        tolerances=Tolerances(timer_late_ms=0.5),
        tick_ns=TICK_NS,
    )
    await bid_clock_running(table)
    await table.flag()
    *_, fault, voided = await table.log()
    assert [fault.kind, voided.kind] == [log_pb2.ENTRY_KIND_FAULT, log_pb2.ENTRY_KIND_VOIDED]
    assert fault.fault.kind == "timer_late"
    assert fault.stamp_ns == voided.stamp_ns
    assert fault.fault.end_ns == voided.stamp_ns  # the lateness is measured at that instant
    assert table.match.status == arbitration_pb2.STATUS_VOIDED
    assert voided.void_reason.startswith("timer_late of 1.0 ms")


async def test_a_command_that_ends_the_match_ends_it_at_its_item_s_reading() -> None:
    table = Table(game_pb2.GAME_BID, 6, tick_ns=TICK_NS)
    seat = await bid_clock_running(table)
    resign = game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign()))
    reads = table.clock_reads
    before_ns = table.now_ns  # the item's reading: the first after this
    reply = await table.submit(seat, resign)
    assert isinstance(reply, arbitration_pb2.SubmitReply)
    assert table.match.status == arbitration_pb2.STATUS_FINISHED
    # The submission's stamp (its arrival) is the test's; the worker read the clock once,
    # and the match ended at that reading, not after the rules' answer came back.
    assert table.clock_reads - reads == 1
    assert table.match.finished_ns == before_ns + 100_000
    *_, finished = await table.log()
    assert finished.kind == log_pb2.ENTRY_KIND_FINISHED
    assert finished.stamp_ns == table.match.finished_ns - table.match.opened_ns


@pytest.mark.parametrize("accepted", [True, False])
async def test_a_command_is_judged_on_one_reading_of_the_clock(accepted: bool) -> None:
    table = Table(game_pb2.GAME_BID, 7, tick_ns=TICK_NS)
    seat = await bid_clock_running(table)
    reads = table.clock_reads
    command = table.legal(seat)[0] if accepted else READY  # Ready: not at a gate now
    answer = await table.submit(seat, command)
    assert isinstance(answer, Rejection) is not accepted
    assert table.clock_reads - reads == 1


async def test_a_nudge_is_judged_on_one_reading_of_the_clock() -> None:
    table = Table(game_pb2.GAME_SPIT, 8, tick_ns=TICK_NS)
    await table.open()
    reads, version = table.clock_reads, table.match.version
    await table.nudge()
    assert table.match.version > version  # the start gate lifted
    assert table.clock_reads - reads == 1
    *_, nudged = await table.log()
    assert nudged.kind == log_pb2.ENTRY_KIND_NUDGE


async def test_a_flag_is_judged_with_nothing_held_and_a_command_with_its_neighbours() -> None:
    # The link holds the hot path's writes a moment for the messages that follow (several
    # commands in one write); a flag is announced at its deadline, its rules call and its
    # news held for nothing.
    table = Table(game_pb2.GAME_BID, 9)
    seat = await bid_clock_running(table)
    at_once = table.outbox.judged_at_once
    await table.submit(seat, table.legal(seat)[0])
    assert table.outbox.judged_at_once == at_once
    await table.flag()
    assert table.match.status == arbitration_pb2.STATUS_FINISHED
    assert table.outbox.judged_at_once == at_once + 1
