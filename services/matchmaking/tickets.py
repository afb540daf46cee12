"""A ticket: one player waiting in one queue, and the queue it waits in."""

from __future__ import annotations

from dataclasses import dataclass

from games.registry import Game
from services.common.identity import Player


@dataclass(frozen=True, slots=True, order=True)
class QueueKey:
    """One queue: a game, rated or casual."""

    game: Game
    rated: bool

    def __str__(self) -> str:
        return f"{self.game}/{'rated' if self.rated else 'casual'}"


@dataclass(frozen=True, slots=True)
class Ticket:
    """A player's place in a queue.

    ``order`` is the place in the line (smaller waited longer; unique per service);
    ``since_ns`` is when the wait began on the service's monotonic clock; ``rating`` is the
    player's rating in the queue's game when the ticket was made.
    """

    order: int
    player: Player
    queue: QueueKey
    since_ns: int
    rating: float


@dataclass(frozen=True, slots=True)
class Waiting:
    """An update to a waiting player: ``count`` tickets wait in their queue, theirs included."""

    count: int
