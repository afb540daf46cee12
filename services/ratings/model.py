"""The ratings service's values: results as they arrive, ladder rows, history lines."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NewType

from games.registry import Game
from services.ratings.glicko2 import Rating

PlayerId = NewType("PlayerId", str)
MatchId = NewType("MatchId", str)


class Mode(enum.Enum):
    """How a match was played; mirrors ``photofinish.events.v1.Mode``."""

    UNSPECIFIED = 0
    ONLINE = 1
    COMPUTER = 2
    HOTSEAT = 3


class Verdict(enum.Enum):
    """One player's result of a match. Values are stored in the database: never rename."""

    WIN = "win"
    LOSS = "loss"
    VOID = "void"
    REFUND = "refund"  # rating lost to an account marked since, given back (moderation.py)


class Recorded(enum.Enum):
    """What storing a result did; also the ``kind`` label of the consumed-results metric."""

    RATED = "rated"
    UNRATED = "unrated"
    UNCOUNTED = "uncounted"  # rated, but past the pair's daily cap: no rating change
    VOIDED = "voided"
    DUPLICATE = "duplicate"


@dataclass(frozen=True, slots=True)
class Player:
    player_id: PlayerId
    name: str  # "" once the account is deleted
    bot: bool = False
    guest: bool = False  # signed in by name only, with no account (a bot is neither)
    deleted: bool = False  # the account was deleted: never on the wire, set by the store


@dataclass(frozen=True, slots=True)
class Finished:
    """A match that ended with a winner (seat 0 or 1); index in ``players`` is the seat."""

    match_id: MatchId
    game: Game
    players: tuple[Player, Player]
    winner: int
    rated: bool
    mode: Mode

    @property
    def changes_ratings(self) -> bool:
        """Return whether this result moves ratings: rated, online, two people."""
        return self.rated and self.mode is Mode.ONLINE and not any(p.bot for p in self.players)


@dataclass(frozen=True, slots=True)
class Voided:
    """A match voided for a proven timing fault: recorded, never rated."""

    match_id: MatchId
    game: Game
    players: tuple[Player, Player]
    reason: str
    figures: str = ""


MatchResult = Finished | Voided


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's row on one game's ladder (rated games only)."""

    player_id: PlayerId
    name: str  # "" once the account is deleted
    rating: Rating
    games: int
    wins: int
    losses: int
    last_played_unix_s: float
    guest: bool = False  # as of their last rated game counted (docs/ratings.md)
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One player's line for one match; ``rating_*`` is None while they have no rating."""

    match_id: MatchId
    seat: int
    player_id: PlayerId
    game: Game
    opponent_id: PlayerId
    opponent_name: str
    verdict: Verdict
    rated: bool
    rating_before: float | None
    rating_after: float | None
    played_unix_s: float
    void_reason: str = ""
    # A rated match that did not count toward ratings: why (the pair's daily cap).
    uncounted_reason: str = ""
    opponent_guest: bool = False
    opponent_deleted: bool = False  # opponent_name is then ""

    @property
    def change(self) -> float:
        """Return rating after minus before; 0 when the match changed nothing."""
        if self.rating_before is None or self.rating_after is None:
            return 0.0
        return self.rating_after - self.rating_before


@dataclass(frozen=True, slots=True)
class LadderEntry:
    """A ranked ladder line as GetLadder reports it."""

    rank: int
    standing: Standing

    @property
    def is_provisional(self) -> bool:
        return self.standing.rating.is_provisional
