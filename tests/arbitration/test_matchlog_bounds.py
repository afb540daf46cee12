"""What a match's log keeps is bounded: a seat's refusals past its bound (its lost races
later than the rest) are answered but not stored and are counted at the end, a command
larger than any command is turned away unlogged, and a match whose log is full is voided;
every such log still replays to the same state."""

from __future__ import annotations

import grpc

from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from services.arbitration.matchlog import bounds
from services.common.rejection import Rejection
from tests.arbitration.harness import Table, races
from tools.replay import replay

EMPTY = game_pb2.Command()  # refused: bad_command
READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
RESIGN = game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign()))
SPIT_READY = game_pb2.Command(spit=spit_pb2.SpitCommand(ready=spit_pb2.SpitReady()))
SPIT_RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))
PAUSE = game_pb2.Command(spit=spit_pb2.SpitCommand(pause=spit_pb2.SpitPause()))
RESUME = game_pb2.Command(spit=spit_pb2.SpitCommand(resume=spit_pb2.SpitResume()))


def refused_of(log: list[log_pb2.LogEntry], seat: int) -> list[log_pb2.LogEntry]:
    return [e for e in log if e.kind == log_pb2.ENTRY_KIND_REFUSED and e.seat == seat]


async def test_refusals_past_the_bound_are_answered_but_not_stored() -> None:
    table = Table(game_pb2.GAME_BID, 5)
    await table.open()
    bound = bounds.REFUSALS_LOGGED_PER_SEAT
    for _ in range(bound + 40):
        answer = await table.submit(0, EMPTY)
        assert isinstance(answer, Rejection) and answer.reason == "bad_command"
    retried = await table.submit(0, EMPTY, client_seq=table.client_seq[0])  # a retry
    assert isinstance(retried, Rejection) and retried.reason == "bad_command"
    assert len(refused_of(await table.log(), 0)) == bound
    reply = await table.submit(0, READY)  # the seat plays on
    assert isinstance(reply, arbitration_pb2.SubmitReply)
    assert replay(await table.log(), live=True).identical  # the match goes on
    await table.submit(1, RESIGN)
    log = await table.log()
    assert log[-1].kind == log_pb2.ENTRY_KIND_FINISHED
    assert list(log[-1].refusals_not_logged) == [40, 0]  # the retry was no new command
    assert replay(log).identical
    await table.close()


async def test_a_seats_lost_races_are_kept_past_its_other_refusals_then_only_counted() -> None:
    table = Table(game_pb2.GAME_SPIT, 7)
    await table.open()
    await table.submit(0, SPIT_READY)
    await table.submit(1, SPIT_READY)
    landing, losing = next(races(table))
    await table.submit(0, landing)
    kept = bounds.REFUSALS_LOGGED_PER_SEAT + bounds.RACES_LOGGED_PER_SEAT
    shown = len(table.outbox.sent)
    for _ in range(kept + 30):  # the same lost play, again and again
        answer = await table.submit(1, losing)
        assert isinstance(answer, Rejection) and answer.reason == "pile_top_changed"
        assert answer.metadata["landed_seat"] == "0"  # the loser still learns the race
    lost = refused_of(await table.log(), 1)
    assert len(lost) == kept and all(e.HasField("race") for e in lost)
    assert len(table.outbox.sent) == shown + kept  # a race is announced once it is stored
    await table.submit(1, SPIT_RESIGN)
    log = await table.log()
    assert list(log[-1].refusals_not_logged) == [0, 30]
    assert replay(log).identical
    await table.close()


async def test_a_command_too_late_is_kept_past_the_bound() -> None:
    table = Table(game_pb2.GAME_BID, 5, bank_ms=10_000)
    await table.open()
    await table.submit(0, READY)
    await table.submit(1, READY)
    running = table.match.timing.clock.running
    assert running is not None
    for _ in range(bounds.REFUSALS_LOGGED_PER_SEAT):
        await table.submit(running, EMPTY)
    deadline = table.match.timing.deadline_ns()
    assert deadline is not None
    table.now_ns = deadline  # the next command arrives after the deadline
    late = await table.submit(running, table.legal(running)[0])
    assert isinstance(late, Rejection) and late.reason == "too_late"
    log = await table.log()
    assert [e.reason for e in refused_of(log, running)][-1] == "too_late"
    assert replay(log).identical
    await table.close()


async def test_a_command_larger_than_any_is_turned_away_and_unknown_fields_are_not_logged() -> None:
    table = Table(game_pb2.GAME_BID, 5)
    await table.open()
    padded = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
    unknown_field = b"\xfa\x3e" + bytes([0x80 | 0x60, 0xD4, 0x03]) + b"x" * 60_000
    padded.MergeFromString(unknown_field)  # field 1007, unknown to the arena: 60,000 bytes
    long_text = bid_pb2.BidPlay(tile=bid_pb2.Tile(low=1, high=2, text="x" * 60_000))
    before = len(await table.log())
    for command in (padded, game_pb2.Command(bid=bid_pb2.BidCommand(play=long_text))):
        assert command.ByteSize() > 60_000
        answer = await table.submit(0, command)
        assert isinstance(answer, Rejection)
        assert (answer.code, answer.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_command")
    assert len(await table.log()) == before
    small = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
    small.MergeFromString(b"\xfa\x3e\x10" + b"x" * 16)  # 16 bytes the arena does not know
    reply = await table.submit(0, small)  # the seat's numbers go on
    assert isinstance(reply, arbitration_pb2.SubmitReply)
    (accepted,) = (await table.log())[before:]
    assert accepted.command == READY and accepted.command.SerializeToString() == b"\n\x02\n\x00"
    await table.close()


async def test_a_seat_with_all_the_accepted_commands_its_log_keeps_may_only_resign() -> None:
    table = Table(game_pb2.GAME_SPIT, 7)
    table.created.options.pausable = True  # against the computer: pause, resume, pause, …
    await table.open()
    await table.submit(0, SPIT_READY)
    await table.submit(1, SPIT_READY)
    flood = [PAUSE, RESUME] * bounds.COMMANDS_ACCEPTED_PER_SEAT
    for command in flood[: bounds.COMMANDS_ACCEPTED_PER_SEAT - 1]:  # Ready was one
        assert isinstance(await table.submit(0, command), arbitration_pb2.SubmitReply)
    length = len(await table.log())
    spent = await table.submit(0, flood[bounds.COMMANDS_ACCEPTED_PER_SEAT - 1])
    assert isinstance(spent, Rejection) and spent.reason == "too_many_commands"
    assert isinstance(await table.submit(1, RESUME), arbitration_pb2.SubmitReply)  # not seat 1
    assert isinstance(await table.submit(0, SPIT_RESIGN), arbitration_pb2.SubmitReply)
    log = await table.log()
    assert len(log) == length + 4  # the refusal, seat 1's resume, the resignation, the end
    assert log[-1].outcome.winner == 1
    assert replay(log).identical
    await table.close()


async def test_a_match_whose_log_is_full_is_voided_and_its_log_replays() -> None:
    limit = bounds.MIN_ENTRIES_PER_MATCH
    table = Table(game_pb2.GAME_SPIT, 7, entries_per_match=limit)
    table.created.options.pausable = True  # against the computer: pause, resume, pause, …
    await table.open()
    await table.submit(0, SPIT_READY)
    await table.submit(1, SPIT_READY)
    for command in [PAUSE, RESUME] * limit:
        await table.submit(0, command)
        if table.match.is_over():
            break
    assert table.match.status == arbitration_pb2.STATUS_VOIDED
    assert table.match.finished_ns is not None
    table.now_ns = table.match.finished_ns - 1_000_000
    for _ in range(5):  # arrived before the end, judged after it: refused, not stored
        answer = await table.submit(1, EMPTY)
        assert isinstance(answer, Rejection) and answer.reason == "match_over"
    log = await table.log()
    assert len(log) == limit - bounds.ENTRIES_RESERVE + 1
    assert (log[-1].kind, log[-1].reason) == (log_pb2.ENTRY_KIND_VOIDED, "log_full")
    assert table.outbox.results == [("voided", len(log))]
    assert replay(log).identical
    await table.close()
