"""Why an engine turned a command away: one closed set of reasons, two kinds of error."""

from __future__ import annotations

from games.identity_enum import IdentityEnum


class Reason(IdentityEnum):
    """Every reason an engine gives. Values are stored and mirrored in proto: never rename."""

    # Malformed: the command cannot be understood at all.
    UNKNOWN_COMMAND = "unknown_command"
    BAD_ARGUMENT = "bad_argument"
    NO_SUCH_SEAT = "no_such_seat"
    # Refused, common to both games.
    MATCH_OVER = "match_over"
    NOT_YOUR_DECISION = "not_your_decision"
    AT_GATE = "at_gate"
    NOT_AT_GATE = "not_at_gate"
    ALREADY_PRESSED = "already_pressed"
    NOT_PAUSABLE = "not_pausable"
    PAUSED = "paused"
    NOT_PAUSED = "not_paused"
    WRONG_PHASE = "wrong_phase"
    # Spectacular Bid.
    TILE_NOT_IN_HAND = "tile_not_in_hand"
    DOES_NOT_MATCH = "does_not_match"
    NO_SUCH_END = "no_such_end"
    MUST_OPEN_WITH = "must_open_with"
    MUST_PLAY_DRAWN = "must_play_drawn"
    CAN_PLAY = "can_play"
    BONEYARD_EMPTY = "boneyard_empty"
    BID_TOO_LOW = "bid_too_low"
    BID_NOT_MULTIPLE_OF_5 = "bid_not_multiple_of_5"
    CANNOT_AFFORD = "cannot_afford"
    NOTHING_TO_ACCEPT = "nothing_to_accept"
    # Spit.
    NO_SUCH_PILE = "no_such_pile"
    EMPTY_STOCK = "empty_stock"
    NOT_ADJACENT = "not_adjacent"
    PILE_TOP_CHANGED = "pile_top_changed"
    SPACE_NOT_EMPTY = "space_not_empty"
    NOTHING_TO_UNCOVER = "nothing_to_uncover"
    NOT_BLOCKED = "not_blocked"


class EngineError(ValueError):
    """Base of every error an engine raises for a bad command; the state is unchanged."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail


class Malformed(EngineError):
    """The command cannot be parsed or names something that cannot exist."""


class Refused(EngineError):
    """The command is well formed but the rules forbid it in this state."""
