"""Why the ratings service turned a result or a request away: reasons, two kinds of error."""

from __future__ import annotations

import enum


class Reason(enum.Enum):
    """Every reason given. Values appear in logs and metric labels: never rename."""

    # Malformed results: the payload on the results stream cannot be a result at all.
    UNDECODABLE = "undecodable"
    UNKNOWN_SUBJECT = "unknown_subject"
    NO_MATCH_ID = "no_match_id"
    NO_SUCH_GAME = "no_such_game"
    NOT_TWO_PLAYERS = "not_two_players"
    NO_PLAYER_ID = "no_player_id"
    NO_SUCH_WINNER = "no_such_winner"
    SELF_PLAY = "self_play"
    # Bad requests: a caller asked for something that cannot exist.
    BAD_LIMIT = "bad_limit"
    BAD_OFFSET = "bad_offset"
    # Not found: the request is well formed but names nothing there is.
    NOT_RANKED = "not_ranked"
    NO_SUCH_FLAG = "no_such_flag"
    # Moderation: a report or an operator's action that cannot be taken.
    OPERATORS_ONLY = "operators_only"
    NOT_YOUR_MATCH = "not_your_match"
    NOT_ONLINE = "not_online"
    ALREADY_REPORTED = "already_reported"
    TOO_MANY_REPORTS = "too_many_reports"
    BAD_REPORT_REASON = "bad_report_reason"
    BAD_ACTION = "bad_action"
    NO_REASON = "no_reason"
    FLAG_SETTLED = "flag_settled"
    OWN_FLAG = "own_flag"


class RatingsError(ValueError):
    """Base of the service's input errors; nothing was stored."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail


class Malformed(RatingsError):
    """A message on the results stream is not a valid result; it is never retried."""


class BadRequest(RatingsError):
    """A gRPC request names no game, no player, or an impossible limit."""


class NotRanked(RatingsError):
    """A ladder page around a player who has no line on that ladder (no rated game yet)."""


class Moderation(RatingsError):
    """A report or an operator's action refused; nothing changed."""
