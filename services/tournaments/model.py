"""A tournament's values: the event, its entrants and its games."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NewType

from games.registry import Game
from services.common.identity import PlayerId

TournamentId = NewType("TournamentId", str)


class Status(enum.Enum):
    """Where a tournament is in its life. Values mirror ``tournaments.v1.Status``."""

    UPCOMING = 1
    LIVE = 2
    ENDING = 3  # past the end: no new pairings, games in progress finish and count
    FINISHED = 4

    def __str__(self) -> str:
        return self.name.lower()


class GameStatus(enum.Enum):
    """Where one tournament game is. Values mirror ``tournaments.v1.GameStatus``."""

    PLAYING = 1
    FINISHED = 2
    VOIDED = 3  # arbitration voided it: it counts for nobody
    ABANDONED = 4  # no result by the end of the overtime: it counts for nobody

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class Tournament:
    """The event as created; ``status`` is the only part that changes."""

    id: TournamentId
    name: str
    game: Game
    rated: bool
    starts_at_ms: int  # unix milliseconds
    duration_s: int
    status: Status
    created_by: str  # the creator's name, as shown
    creator_id: PlayerId  # "" for tournaments made before creators were kept

    @property
    def ends_at_ms(self) -> int:
        return self.starts_at_ms + self.duration_s * 1000


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player who joined; ``withdrawn`` players are no longer paired but keep their score."""

    player_id: PlayerId
    name: str  # "" once the account is deleted
    joined_at_ms: int
    withdrawn: bool = False
    guest: bool = False  # joined signed in by name only, with no account
    deleted: bool = False  # the account was deleted: shown as "deleted player"


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One pairing: its match, both players by seat, and how it ended (if it has)."""

    match_id: str
    players: tuple[PlayerId, PlayerId]
    paired_at_ms: int
    status: GameStatus = GameStatus.PLAYING
    winner: int | None = None  # seat, when FINISHED
    ended_at_ms: int | None = None
