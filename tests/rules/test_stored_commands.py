"""The commands the match log feeds the rules once stored: applied as a held call, answered
on the reply subject the entry names."""

from __future__ import annotations

from games.decision import DEFAULT_LIFT_PAUSE_MS
from photofinish.arbitration.v1 import log_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from photofinish.rules.v1 import rules_pb2
from services.common.natslink.frames import header_block
from services.common.stored_commands import REPLY, RESIGNATION_ONLY
from services.rules.held_calls import answer_stored
from services.rules.held_matches import HeldMatches

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
RESIGN = game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign()))


def opened(table: HeldMatches) -> int:
    """Open a Bid match "m1" on ``table``; return its version."""
    call = rules_pb2.HeldCall(
        match_id="m1", open=rules_pb2.NewMatchRequest(game=game_pb2.GAME_BID, seed=7)
    )
    return table.answer(call).step.version


def command(version: int, seat: int, what: game_pb2.Command) -> bytes:
    return log_pb2.LogEntry(
        match_id="m1",
        kind=log_pb2.ENTRY_KIND_COMMAND,
        seat=seat,
        version=version,
        client_seq=1,
        command=what,
    ).SerializeToString()


def answer_of(data: bytes) -> rules_pb2.RulesAnswer:
    answers = rules_pb2.HeldAnswers.FromString(data)
    assert answers.holder == "r1"
    (answer,) = answers.answers
    return answer


def test_a_stored_command_is_applied_and_answered_on_the_reply_subject_it_names() -> None:
    table = HeldMatches(DEFAULT_LIFT_PAUSE_MS)
    version = opened(table)
    headers = header_block({REPLY: "_INBOX_arbitration.abc.41"})
    answer = answer_stored(table, "r1", command(version, 0, READY), headers)
    assert answer is not None
    assert answer.subject == "_INBOX_arbitration.abc.41"
    step = answer_of(answer.data).step
    assert step.version == version + 1
    assert {p.seat for p in step.perspectives} == {0, 1}  # nobody watches: no public view


def test_a_stored_command_for_another_version_is_not_held_and_changes_nothing() -> None:
    table = HeldMatches(DEFAULT_LIFT_PAUSE_MS)
    version = opened(table)
    headers = header_block({REPLY: "_INBOX_arbitration.abc.1"})
    answer = answer_stored(table, "r1", command(version + 5, 0, READY), headers)
    assert answer is not None
    assert answer_of(answer.data).refusal.reason == "not_held"
    assert table.state_of("m1").version == version


def test_only_a_resignation_is_taken_when_the_entry_says_so() -> None:
    table = HeldMatches(DEFAULT_LIFT_PAUSE_MS)
    version = opened(table)
    headers = header_block({REPLY: "_INBOX_arbitration.abc.1", RESIGNATION_ONLY: "1"})
    refused = answer_stored(table, "r1", command(version, 0, READY), headers)
    assert refused is not None
    assert answer_of(refused.data).refusal.reason == "not_a_resignation"
    taken = answer_stored(table, "r1", command(version, 0, RESIGN), headers)
    assert taken is not None
    assert answer_of(taken.data).step.outcome.termination == game_pb2.TERMINATION_RESIGN


def test_an_entry_naming_nobody_to_answer_or_no_command_gets_no_answer() -> None:
    table = HeldMatches(DEFAULT_LIFT_PAUSE_MS)
    version = opened(table)
    assert answer_stored(table, "r1", command(version, 0, READY), b"") is None
    header = log_pb2.LogEntry(match_id="m1", kind=log_pb2.ENTRY_KIND_OPENED).SerializeToString()
    headers = header_block({REPLY: "_INBOX_arbitration.abc.1"})
    assert answer_stored(table, "r1", header, headers) is None
    assert table.state_of("m1").version == version
