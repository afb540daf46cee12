"""Protobuf <-> fair play's values: reports, the queue, a flag's case, its settling."""

from __future__ import annotations

from collections.abc import Sequence

from photofinish.ratings.v1 import ratings_pb2
from services.fairplay.reactions import Reaction
from services.ratings import measured
from services.ratings.codec import encode_spit_figures
from services.ratings.errors import BadRequest, Reason
from services.ratings.model import MatchId, PlayerId
from services.ratings.moderation import Action, Case, Flag, FlagState, ReportReason

_REASONS = {
    ratings_pb2.REPORT_REASON_TOO_FAST: ReportReason.TOO_FAST,
    ratings_pb2.REPORT_REASON_PROGRAM: ReportReason.PROGRAM,
    ratings_pb2.REPORT_REASON_STALLING: ReportReason.STALLING,
    ratings_pb2.REPORT_REASON_NAME: ReportReason.NAME,
}
_REASON_NUMBERS = {reason: number for number, reason in _REASONS.items()}
_STATES = {
    FlagState.OPEN: ratings_pb2.FLAG_STATE_OPEN,
    FlagState.CLEARED: ratings_pb2.FLAG_STATE_CLEARED,
    FlagState.MARKED: ratings_pb2.FLAG_STATE_MARKED,
}
_ACTIONS = {ratings_pb2.FLAG_ACTION_CLEAR: Action.CLEAR, ratings_pb2.FLAG_ACTION_MARK: Action.MARK}
MAX_ID_CHARS = 100


def decode_report(request: ratings_pb2.ReportOpponentRequest) -> tuple[MatchId, ReportReason]:
    """Return the match and the reason a report names.

    Raises:
        BadRequest: ``bad_match_id`` or ``bad_report_reason``.
    """
    reason = _REASONS.get(request.reason)
    if reason is None:
        raise BadRequest(Reason.BAD_REPORT_REASON, f"no report reason {request.reason}")
    return MatchId(_an_id(request.match_id, Reason.NO_MATCH_ID, "match")), reason


def decode_settle(request: ratings_pb2.SettleFlagRequest) -> tuple[str, Action, str]:
    """Return the flag, the action and the reason an operator gave.

    Raises:
        BadRequest: ``no_such_flag`` for no flag id, ``bad_action`` for no action.
    """
    action = _ACTIONS.get(request.action)
    if action is None:
        raise BadRequest(Reason.BAD_ACTION, f"no flag action {request.action}: clear or mark")
    return _an_id(request.flag_id, Reason.NO_SUCH_FLAG, "flag"), action, request.why


def decode_flag_id(text: str) -> str:
    return _an_id(text, Reason.NO_SUCH_FLAG, "flag")


def decode_match_id(text: str) -> MatchId:
    return MatchId(_an_id(text, Reason.NO_MATCH_ID, "match"))


def _an_id(text: str, reason: Reason, what: str) -> str:
    if not text or len(text) > MAX_ID_CHARS:
        raise BadRequest(reason, f"no {what} id, or one of over {MAX_ID_CHARS} characters")
    return text


def encode_flag(flag: Flag) -> ratings_pb2.Flag:
    return ratings_pb2.Flag(
        flag_id=flag.flag_id,
        player_id=flag.player_id,
        name=flag.name,
        opened_unix_ms=round(flag.opened_unix_s * 1000),
        reactions_why=flag.reactions_why,
        state=_STATES[flag.state],
        reports=[
            ratings_pb2.ReportCount(reason=_REASON_NUMBERS[ReportReason(reason)], count=count)
            for reason, count in flag.reports
        ],
    )


def encode_queue(flags: Sequence[Flag]) -> ratings_pb2.FairPlayQueue:
    return ratings_pb2.FairPlayQueue(flags=[encode_flag(flag) for flag in flags])


def encode_case(found: Case) -> ratings_pb2.FairPlayCase:
    encoded = ratings_pb2.FairPlayCase(
        flag=encode_flag(found.flag),
        bin_ms=measured.BIN_MS,
        answers=found.answers,
        everyone_answers=found.everyone_answers,
        log=[
            ratings_pb2.ModerationEntry(
                at_unix_ms=round(entry.at_unix_s * 1000),
                operator_name=entry.operator_name,
                action=entry.action,
                why=entry.why,
            )
            for entry in found.log
        ],
    )
    if found.figures is not None:
        encoded.figures.CopyFrom(encode_spit_figures(found.figures))
    for game in found.games:
        line = encoded.games.add(
            match_id=game.match_id,
            played_unix_ms=round(game.played_unix_s * 1000),
            opponent_name=game.opponent_name,
            won=game.won,
            answers=game.answers,
        )
        if game.median_answer_ms is not None:
            line.median_answer_ms = game.median_answer_ms
    return encoded


def encode_reactions(
    match_id: MatchId, plays: Sequence[tuple[PlayerId, Reaction]]
) -> ratings_pb2.MatchReactions:
    return ratings_pb2.MatchReactions(
        match_id=match_id,
        plays=[
            ratings_pb2.PlayReaction(
                entry_index=reaction.index,
                player_id=player,
                ms=reaction.ms,
                chain=reaction.chain,
            )
            for player, reaction in plays
        ],
    )
