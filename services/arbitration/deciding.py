"""What becomes of a player's command, decided from the match's record alone.

Pure: no clock read, no call, no I/O. The match's worker asks ``admit`` first (a retry, a
command number or size that cannot be taken, a command that came after the end), then
``plan`` for what judging the command takes, and, when the rules were asked to apply it,
``after_rules`` for what their answer means. It then stores, applies and publishes what
was decided, in that order.
"""

from __future__ import annotations

import msgspec

from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration.attendance import attended
from services.arbitration.match import Match, Submission
from services.arbitration.matchlog import bounds
from services.arbitration.refusals import NOT_A_RESIGNATION, Reason, refuse
from services.common.rejection import Rejection
from services.common.replies import Answer

MAX_CLIENT_SEQ_JUMP = 1 << 20  # how far a seat's client_seq may grow in one command


class Answered(msgspec.Struct, frozen=True):
    """The command's answer, given without judging it (nothing is logged).

    ``taken``: the command's number is used up all the same (it came after the end).
    """

    answer: Answer
    taken: bool = False


class Refuse(msgspec.Struct, frozen=True):
    """Judged and refused: the refusal is logged (within the seat's bound) and answered."""

    refusal: Rejection


class FlagFirst(msgspec.Struct, frozen=True):
    """The command arrived after the running deadline: the flag falls at that deadline,
    and the command is refused as ``refusal`` says (too late, or the match is over)."""

    refusal: Rejection


class Reveal(msgspec.Struct, frozen=True):
    """The seat reveals its hand at the hot-seat hand-over."""


class Abort(msgspec.Struct, frozen=True):
    """The match ends with no result and no rating, for ``reason``."""

    reason: str


class Forfeit(msgspec.Struct, frozen=True):
    """A claim against an away opponent: ``seat`` forfeits the match (abandoned)."""

    seat: int


class Apply(msgspec.Struct, frozen=True):
    """Ask the rules to apply the command; ``resignation_only`` while the seat may only
    resign (a hand-over waits for its reveal, or the seat's commands are all spent)."""

    handover: bool
    spent: bool

    @property
    def resignation_only(self) -> bool:
        return self.handover or self.spent


class Accept(msgspec.Struct, frozen=True):
    """The rules applied the command: its step is logged, and both seats see it."""

    step: rules_pb2.StepReply


class Lost(msgspec.Struct, frozen=True):
    """The rules refused the command (an illegal move, or a race lost to an earlier one)."""

    refusal: Rejection


Plan = Refuse | FlagFirst | Reveal | Abort | Forfeit | Apply
Outcome = Accept | Abort | Refuse | Lost


def admit(match: Match, item: Submission) -> Answered | None:
    """Return the answer a command gets without being judged, or None to judge it."""
    kept = match.answer_to(item.seat, item.client_seq)
    if kept is not None:
        return Answered(kept)  # a retry: answered, never applied twice
    last = match.last_client_seq.get(item.seat, 0)
    if item.client_seq <= last:
        return Answered(
            refuse(
                Reason.STALE_CLIENT_SEQ,
                f"client_seq {item.client_seq} was already used or skipped",
            )
        )
    if item.client_seq > last + MAX_CLIENT_SEQ_JUMP:
        # Else one number near 2^64 would leave the seat nothing to send for the match.
        return Answered(
            refuse(
                Reason.BAD_CLIENT_SEQ,
                f"client_seq may grow by at most {MAX_CLIENT_SEQ_JUMP} from the last ({last})",
            )
        )
    size = item.command.ByteSize()
    if size > bounds.MAX_COMMAND_BYTES:
        # Turned away unjudged: the log would keep it whole (matchlog/bounds.py).
        return Answered(
            refuse(
                Reason.BAD_COMMAND,
                f"the command is {size} bytes; a command has at most {bounds.MAX_COMMAND_BYTES}",
            )
        )
    if match.finished_ns is not None and item.arrival_ns > match.finished_ns:
        # It arrived after the end: answered, but not part of the match (not logged).
        return Answered(refuse(Reason.MATCH_OVER, "the match is over"), taken=True)
    return None


def plan(match: Match, item: Submission) -> Plan:
    """Return what judging ``item`` takes, its turn come (``admit`` let it through)."""
    if match.is_over():
        return Refuse(refuse(Reason.MATCH_OVER, "the match is over"))
    kind = item.command.WhichOneof("kind")
    if kind is None or kind == "nudge":
        return Refuse(refuse(Reason.BAD_COMMAND, "the command is empty or not a player's"))
    if not match.timing.is_in_time(item.arrival_ns):
        if match.timing.clock.running == item.seat:
            return FlagFirst(
                refuse(Reason.TOO_LATE, "the command reached the server after your deadline")
            )
        return FlagFirst(refuse(Reason.MATCH_OVER, "the match is over"))
    if kind == "reveal":
        if match.timing.handover != item.seat:
            return Refuse(refuse(Reason.NO_HANDOVER, "there is no hand-over waiting for this seat"))
        return Reveal()
    if kind == "claim":
        return _claim(match, item.seat)
    # A seat with as many accepted commands as the log keeps may only resign.
    spent = not bounds.takes_commands(match.accepted.get(item.seat, 0))
    return Apply(handover=match.timing.handover is not None, spent=spent)


def after_rules(
    match: Match, item: Submission, applied: Apply, answer: rules_pb2.StepReply | Rejection
) -> Outcome:
    """Return what the rules' ``answer`` to an ``Apply`` means for the command."""
    if isinstance(answer, Rejection):
        if applied.spent and answer.reason == NOT_A_RESIGNATION:
            return Refuse(spent())
        if applied.handover or answer.reason == NOT_A_RESIGNATION:
            return Refuse(reveal_first(match))
        return Lost(answer)
    if resigned_unmoved(match, item, answer):
        # As on Lichess: a rated match given up before one's first move is aborted
        # (the rules' step is dropped), so resigning at the gate feeds no rating.
        name = match.created.players[item.seat].name
        return Abort(f"aborted: {name} resigned before making a move")
    return Accept(answer)


def _claim(match: Match, seat: int) -> Refuse | Abort | Forfeit:
    """An online match whose opponent is away: the claimant wins, or, when the away
    player never made a move, the match is aborted with no result."""
    opponent = 1 - seat
    if not attended(match) or opponent not in (0, 1):
        return Refuse(refuse(Reason.NO_CLAIM, "a claim is for an online match whose opponent left"))
    name = match.created.players[opponent].name
    if opponent not in match.away:
        return Refuse(
            refuse(
                Reason.OPPONENT_PRESENT,
                f"{name} is still here: a claim needs them away (no move and no connection)",
            )
        )
    if opponent not in match.moved:
        return Abort(f"aborted: {name} left before making a move")
    return Forfeit(opponent)


def resigned_unmoved(match: Match, item: Submission, step: rules_pb2.StepReply) -> bool:
    """Return whether ``item`` resigned a rated match before its seat's first move."""
    return (
        match.created.rated
        and item.seat not in match.moved
        and step.HasField("outcome")
        and step.outcome.termination == game_pb2.TERMINATION_RESIGN
    )


def reveal_first(match: Match) -> Rejection:
    return refuse(Reason.REVEAL_FIRST, f"seat {match.timing.handover} must reveal their hand first")


def spent() -> Rejection:
    return refuse(
        Reason.TOO_MANY_COMMANDS,
        f"this seat's log holds {bounds.COMMANDS_ACCEPTED_PER_SEAT} accepted commands,"
        " all a match keeps of one seat: it may only resign",
    )
