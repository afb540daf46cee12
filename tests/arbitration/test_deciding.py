"""What becomes of a command, decided from the match's record alone: no server, no rules
process, no clock. Matches are built from an OPENED log entry, as a takeover builds them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.protowire import message_field
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration import record
from services.arbitration.deciding import (
    MAX_CLIENT_SEQ_JUMP,
    Abort,
    Accept,
    Answered,
    Apply,
    FlagFirst,
    Forfeit,
    Lost,
    Refuse,
    Reveal,
    admit,
    after_rules,
    plan,
)
from services.arbitration.match import Match, Submission
from services.arbitration.matchlog import bounds
from services.arbitration.refusals import NOT_A_RESIGNATION, Reason, refuse
from services.common.rejection import Rejection

OPENED_NS = 1_000_000_000
BANK_MS, GRACE_MS = 120_000, 10_000
DEADLINE_NS = OPENED_NS + (BANK_MS + GRACE_MS) * 1_000_000  # seat 0's, from the opening
PLAY = game_pb2.Command(bid=bid_pb2.BidCommand(draw=bid_pb2.BidDraw()))  # any will do
REVEAL = game_pb2.Command(reveal=game_pb2.Reveal())
CLAIM = game_pb2.Command(claim=game_pb2.Claim())


def opened(
    mode: events_pb2.Mode.ValueType = events_pb2.MODE_ONLINE,
    rated: bool = True,
    clocked: bool = True,
) -> Match:
    """A match as its OPENED entry describes it: seat 0 to decide, its clock running."""
    created = events_pb2.MatchCreated(
        match_id="m1",
        game=game_pb2.GAME_BID,
        players=[
            events_pb2.Player(player_id="p0", name="Ann"),
            events_pb2.Player(player_id="p1", name="Ben"),
        ],
        mode=mode,
        rated=rated,
    )
    header = log_pb2.LogEntry(
        kind=log_pb2.ENTRY_KIND_OPENED,
        created=created,
        opened_ns=OPENED_NS,
        version=1,
        decision=game_pb2.Decision(seats=[0], fresh=True),
        bank_ms=BANK_MS,
        grace_ms=GRACE_MS,
        clocked=clocked,
    )
    return record.opened(header)


def submitted(
    seat: int = 0,
    client_seq: int = 1,
    command: game_pb2.Command = PLAY,
    arrival_ns: int = OPENED_NS + 1,
) -> Submission:
    return Submission(arrival_ns, seat, client_seq, command, lambda answer: None)


def test_a_retry_gets_the_answer_it_got_and_is_not_judged_again() -> None:
    match = opened()
    kept = arbitration_pb2.SubmitReply(seq=7)
    match.remember(0, 3, kept)
    match.last_client_seq[0] = 3
    assert admit(match, submitted(client_seq=3)) == Answered(kept)


@given(st.integers(0, 1), st.integers(1, 10_000), st.integers(-5, 5))
def test_a_number_at_or_below_the_last_is_stale_and_the_next_is_judged(
    seat: int, last: int, step: int
) -> None:
    match = opened()
    match.last_client_seq[seat] = last
    answered = admit(match, submitted(seat=seat, client_seq=last + step))
    if step <= 0:
        assert isinstance(answered, Answered) and not answered.taken
        assert isinstance(answered.answer, Rejection)
        assert answered.answer.reason == Reason.STALE_CLIENT_SEQ.value
    else:
        assert answered is None


def test_a_number_that_jumps_too_far_and_an_oversize_command_are_turned_away() -> None:
    match = opened()
    far = admit(match, submitted(client_seq=MAX_CLIENT_SEQ_JUMP + 1))
    assert isinstance(far, Answered) and isinstance(far.answer, Rejection)
    assert far.answer.reason == Reason.BAD_CLIENT_SEQ.value
    assert admit(match, submitted(client_seq=MAX_CLIENT_SEQ_JUMP)) is None
    # A command carrying an unknown field (number 1023) beyond the bound.
    huge = game_pb2.Command(reveal=game_pb2.Reveal())
    filler = b"x" * bounds.MAX_COMMAND_BYTES
    huge.MergeFromString(message_field(1023, filler))
    oversize = admit(match, submitted(command=huge))
    assert isinstance(oversize, Answered) and isinstance(oversize.answer, Rejection)
    assert oversize.answer.reason == Reason.BAD_COMMAND.value


def test_a_command_that_arrived_after_the_end_is_refused_and_uses_up_its_number() -> None:
    match = opened()
    match.finished_ns = OPENED_NS + 500
    before = admit(match, submitted(arrival_ns=OPENED_NS + 500))
    assert before is None  # arrived at the end's instant: judged (and refused as over)
    after = admit(match, submitted(arrival_ns=OPENED_NS + 501))
    assert isinstance(after, Answered) and after.taken
    assert isinstance(after.answer, Rejection)
    assert after.answer.reason == Reason.MATCH_OVER.value


def test_over_empty_and_server_commands_are_refused() -> None:
    match = opened()
    assert _reason(plan(match, submitted(command=game_pb2.Command()))) == Reason.BAD_COMMAND
    nudge = game_pb2.Command(nudge=game_pb2.Nudge())
    assert _reason(plan(match, submitted(command=nudge))) == Reason.BAD_COMMAND
    match.status = arbitration_pb2.STATUS_FINISHED
    assert _reason(plan(match, submitted())) == Reason.MATCH_OVER


@given(st.integers(-3, 3), st.integers(0, 1))
def test_a_deadline_is_judged_strictly_before_and_the_flag_falls_first(
    offset_ns: int, seat: int
) -> None:
    match = opened()
    planned = plan(match, submitted(seat=seat, arrival_ns=DEADLINE_NS + offset_ns))
    if offset_ns < 0:
        assert isinstance(planned, Apply)
    else:
        # At the deadline is too late: the flag falls at it, then the command is refused,
        # too late for the running seat (0), the match over for the other.
        assert isinstance(planned, FlagFirst)
        expected = Reason.TOO_LATE if seat == 0 else Reason.MATCH_OVER
        assert planned.refusal.reason == expected.value


def test_an_unclocked_match_has_no_deadline() -> None:
    match = opened(clocked=False)
    assert isinstance(plan(match, submitted(arrival_ns=DEADLINE_NS * 10)), Apply)


def test_a_reveal_is_for_the_seat_whose_hand_over_waits() -> None:
    online = opened()
    assert _reason(plan(online, submitted(command=REVEAL))) == Reason.NO_HANDOVER
    # On one device, the first player reveals their hand before anything else.
    match = opened(mode=events_pb2.MODE_HOTSEAT)
    assert match.timing.handover == 0
    assert _reason(plan(match, submitted(seat=1, command=REVEAL))) == Reason.NO_HANDOVER
    assert isinstance(plan(match, submitted(seat=0, command=REVEAL)), Reveal)
    waiting = plan(match, submitted(seat=0))
    assert waiting == Apply(handover=True, spent=False) and waiting.resignation_only


def test_a_claim_needs_an_online_match_an_away_opponent_and_wins_once_they_moved() -> None:
    home = opened(mode=events_pb2.MODE_HOTSEAT)
    assert _reason(plan(home, submitted(command=CLAIM))) == Reason.NO_CLAIM
    match = opened()
    assert _reason(plan(match, submitted(command=CLAIM))) == Reason.OPPONENT_PRESENT
    match.away = frozenset({1})
    aborted = plan(match, submitted(command=CLAIM))
    assert aborted == Abort("aborted: Ben left before making a move")
    match.moved = frozenset({1})
    assert plan(match, submitted(command=CLAIM)) == Forfeit(1)


def test_a_seat_whose_commands_are_spent_may_only_resign() -> None:
    match = opened()
    match.accepted[0] = bounds.COMMANDS_ACCEPTED_PER_SEAT
    planned = plan(match, submitted())
    assert planned == Apply(handover=False, spent=True) and planned.resignation_only
    not_resigning = refuse_rules(NOT_A_RESIGNATION)
    outcome = after_rules(match, submitted(), planned, not_resigning)
    assert _reason(outcome) == Reason.TOO_MANY_COMMANDS


def test_the_rules_answer_is_accepted_lost_or_read_as_waiting_for_the_reveal() -> None:
    match = opened()
    applied = Apply(handover=False, spent=False)
    step = rules_pb2.StepReply(version=2)
    assert after_rules(match, submitted(), applied, step) == Accept(step)
    illegal = refuse_rules("illegal_move")
    assert after_rules(match, submitted(), applied, illegal) == Lost(illegal)
    waiting = Apply(handover=True, spent=False)
    assert _reason(after_rules(match, submitted(), waiting, illegal)) == Reason.REVEAL_FIRST


def test_resigning_a_rated_match_before_ones_first_move_aborts_it() -> None:
    resigned = rules_pb2.StepReply(
        version=2, outcome=game_pb2.Outcome(winner=1, termination=game_pb2.TERMINATION_RESIGN)
    )
    applied = Apply(handover=False, spent=False)
    rated = opened(rated=True)
    assert after_rules(rated, submitted(), applied, resigned) == Abort(
        "aborted: Ann resigned before making a move"
    )
    rated.moved = frozenset({0})
    assert after_rules(rated, submitted(), applied, resigned) == Accept(resigned)
    casual = opened(rated=False)
    assert after_rules(casual, submitted(), applied, resigned) == Accept(resigned)


def refuse_rules(reason: str) -> Rejection:
    """A refusal as the rules service sends it (its reason, not the arbitration's)."""
    refusal = refuse(Reason.BAD_COMMAND, "the rules said no")
    refusal.reason = reason
    return refusal


def _reason(decided: object) -> Reason:
    assert isinstance(decided, Refuse), decided
    return Reason(decided.refusal.reason)
