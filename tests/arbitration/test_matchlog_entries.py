"""What the match's worker writes in a match's log: one entry per decision, with the
server's stamps."""

from __future__ import annotations

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration.faults import Fault, FaultKind
from services.arbitration.matchlog.entries import since_open_us
from services.common.rejection import Rejection
from tests.arbitration.harness import Table, races

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
REVEAL = game_pb2.Command(reveal=game_pb2.Reveal())


async def started(game: game_pb2.Game.ValueType, seed: int = 1, rated: bool = False) -> Table:
    """Return a table whose match is past its start gate (a Bid clock running)."""
    table = Table(game, seed, rated=rated)
    await table.open()
    if game == game_pb2.GAME_BID:
        await table.submit(0, READY)
        await table.submit(1, READY)
    else:
        await table.nudge()
    return table


def deciding(table: Table) -> int:
    (seat,) = table.match.decision.seats
    return seat


async def test_the_header_is_the_match_as_created_and_dealt() -> None:
    table = Table(game_pb2.GAME_BID, 4)
    await table.open()
    (header,) = await table.log()
    assert header.index == 0 and header.kind == log_pb2.ENTRY_KIND_OPENED
    assert header.created == table.created
    assert (header.clocked, header.bank_ms, header.grace_ms) == (True, 60, 20)
    assert header.seat == -1 and header.instance == "test"
    assert header.version == table.match.version
    assert header.state_sha256 == table.state_sha256()


async def test_an_accepted_command_has_its_arrival_seq_and_the_deadline_in_force() -> None:
    table = await started(game_pb2.GAME_BID)
    seat = deciding(table)
    deadline_ns = table.match.timing.deadline_ns()
    assert deadline_ns is not None
    command = table.legal(seat)[0]
    reply = await table.submit(seat, command)
    assert isinstance(reply, arbitration_pb2.SubmitReply)
    entry = (await table.log())[-1]
    assert entry.kind == log_pb2.ENTRY_KIND_ACCEPTED
    assert (entry.seq, entry.arrival_us) == (reply.seq, reply.arrival_us)
    assert entry.deadline_us == since_open_us(table.match, deadline_ns)
    assert (entry.seat, entry.client_seq, entry.command) == (seat, 2, command)
    assert entry.version == table.match.version
    assert entry.state_sha256 == table.state_sha256()


async def test_a_refused_command_has_its_reason_and_changes_nothing() -> None:
    table = await started(game_pb2.GAME_BID)
    idle = 1 - deciding(table)
    version = table.match.version
    refusal = await table.submit(idle, table.legal(1 - idle)[0])
    assert isinstance(refusal, Rejection)
    entry = (await table.log())[-1]
    assert entry.kind == log_pb2.ENTRY_KIND_REFUSED
    assert (entry.seq, entry.reason) == (0, refusal.reason)
    assert entry.version == version and not entry.state_sha256


async def test_a_retry_or_a_stale_client_seq_is_answered_without_a_new_entry() -> None:
    table = await started(game_pb2.GAME_BID)
    logged = len(await table.log())
    first = await table.submit(0, READY, client_seq=1)  # the same as the first ready
    stale = await table.submit(1, READY, client_seq=0)
    assert isinstance(first, arbitration_pb2.SubmitReply)
    assert isinstance(stale, Rejection) and stale.reason == "stale_client_seq"
    assert len(await table.log()) == logged


async def test_a_lost_race_has_both_arrival_stamps_and_the_gap() -> None:
    for seed in range(1, 50):
        table = await started(game_pb2.GAME_SPIT, seed)
        race = next(races(table), None)
        if race is not None:
            break
        await table.close()
    assert race is not None, "no seed deals a race at the start"
    await table.submit(0, race[0])
    refusal = await table.submit(1, race[1])
    assert isinstance(refusal, Rejection)
    *_, landed, lost = await table.log()
    assert lost.kind == log_pb2.ENTRY_KIND_REFUSED and lost.HasField("race")
    assert not lost.HasField("deadline_us")  # Spit runs no clock
    pile = race[0].spit.play.pile
    assert (lost.race.claim, lost.race.pile) == (f"pile:{pile}", pile)
    assert (lost.race.landed_seat, lost.race.refused_seat) == (0, 1)
    assert lost.race.landed_arrival_us == landed.arrival_us
    assert lost.race.refused_arrival_us == lost.arrival_us
    assert lost.race.gap_us == lost.arrival_us - landed.arrival_us > 0
    assert lost.race.landed_card and lost.race.refused_card
    notice = table.outbox.sent[-1].race  # what both players were shown
    assert (notice.gap_us, notice.landed_card) == (lost.race.gap_us, lost.race.landed_card)


async def test_a_flag_has_its_deadline_and_firing_and_players_see_the_same_figures() -> None:
    table = await started(game_pb2.GAME_BID)
    running = deciding(table)
    deadline_ns = table.match.timing.deadline_ns()
    assert deadline_ns is not None
    await table.flag()
    *_, flag, finished = await table.log()
    assert flag.kind == log_pb2.ENTRY_KIND_FLAG and flag.seat == -1
    assert flag.flag.seat == running
    assert flag.flag.deadline_us == since_open_us(table.match, deadline_ns) == flag.arrival_us
    assert flag.flag.fired_us >= flag.flag.deadline_us
    assert flag.flag.late_us == flag.flag.fired_us - flag.flag.deadline_us
    assert finished.kind == log_pb2.ENTRY_KIND_FINISHED
    assert finished.outcome.termination == game_pb2.TERMINATION_TIME
    assert finished.outcome.winner == 1 - running
    assert table.outbox.sent[-1].flag == flag.flag


async def test_a_command_at_the_deadline_is_logged_after_the_flag_it_brought() -> None:
    table = await started(game_pb2.GAME_BID)
    running = deciding(table)
    deadline_ns = table.match.timing.deadline_ns()
    assert deadline_ns is not None
    table.now_ns = deadline_ns - 100_000  # the next stamp is the deadline itself: too late
    refusal = await table.submit(running, table.legal(running)[0])
    assert isinstance(refusal, Rejection) and refusal.reason == "too_late"
    *_, flag, late, finished = await table.log()
    assert [flag.kind, late.kind, finished.kind] == [
        log_pb2.ENTRY_KIND_FLAG,
        log_pb2.ENTRY_KIND_REFUSED,
        log_pb2.ENTRY_KIND_FINISHED,
    ]
    assert late.reason == "too_late" and late.arrival_us == late.deadline_us


async def test_the_result_goes_out_once_the_whole_log_is_stored() -> None:
    table = await started(game_pb2.GAME_BID)
    await table.flag()
    log = await table.log()
    assert table.outbox.results == [("finished", len(log))]


async def test_a_command_that_arrives_after_the_end_is_answered_not_logged() -> None:
    table = await started(game_pb2.GAME_BID)
    await table.flag()
    logged = len(await table.log())
    table.now_ns = table.match.finished_ns or 0
    refusal = await table.submit(0, READY)
    assert isinstance(refusal, Rejection) and refusal.reason == "match_over"
    assert len(await table.log()) == logged
    assert len(table.outbox.results) == 1


async def test_a_voided_match_closes_its_log_before_the_void_goes_out() -> None:
    table = await started(game_pb2.GAME_BID, rated=True)
    lag = Fault(FaultKind.EVENT_LOOP_LAG, table.now_ns, table.now_ns + 500_000_000)
    await table.fault(lag)
    log = await table.log()
    assert log[-1].kind == log_pb2.ENTRY_KIND_VOIDED
    assert log[-1].void_reason == table.match.void_reason != ""
    assert log[-1].state_sha256 == table.state_sha256()
    assert table.outbox.results == [("voided", len(log))]


async def test_a_nudge_is_the_servers_own_entry() -> None:
    table = Table(game_pb2.GAME_BID, 2)
    await table.open()
    await table.nudge()  # nobody pressed Start
    nudge = (await table.log())[-1]
    assert nudge.kind == log_pb2.ENTRY_KIND_NUDGE and nudge.seat == -1
    assert nudge.command.WhichOneof("kind") == "nudge"
    assert nudge.seq == table.match.seq and nudge.version == table.match.version
    assert nudge.state_sha256 == table.state_sha256()


async def test_a_hot_seat_reveal_is_logged_with_its_arrival() -> None:
    table = Table(game_pb2.GAME_BID, 3)
    table.created.mode = events_pb2.MODE_HOTSEAT
    await table.open()
    await table.submit(0, READY)
    await table.submit(1, READY)
    if table.match.timing.handover is None:  # the first decision fell to the shown seat
        first = deciding(table)
        await table.submit(first, table.legal(first)[0])
    seat = table.match.timing.handover
    assert seat is not None
    reply = await table.submit(seat, REVEAL)
    assert isinstance(reply, arbitration_pb2.SubmitReply)
    entry = (await table.log())[-1]
    assert entry.kind == log_pb2.ENTRY_KIND_REVEAL and entry.seq == reply.seq
    assert entry.arrival_us == reply.arrival_us and entry.command == REVEAL
