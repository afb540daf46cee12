"""Players, tickets and a stand-in for opening matches, for the in-process tests."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from games.registry import BID, SPIT, Game
from services.common.identity import Player, PlayerId
from services.common.opening import matches
from services.common.opening.matches import MatchId, MatchSpec
from services.matchmaking.errors import Unavailable
from services.matchmaking.tickets import QueueKey, Ticket

SPIT_CASUAL = QueueKey(SPIT, rated=False)
SPIT_RATED = QueueKey(SPIT, rated=True)
BID_CASUAL = QueueKey(BID, rated=False)


def player(name: str) -> Player:
    return Player(PlayerId(name.lower()), name)


def ticket(
    order: int,
    name: str,
    queue: QueueKey = SPIT_CASUAL,
    rating: float = 1500.0,
    since_ns: int | None = None,
) -> Ticket:
    """Return a ticket; by default it joined ``order`` seconds after the clock's zero."""
    joined_ns = order * 1_000_000_000 if since_ns is None else since_ns
    return Ticket(order, player(name), queue, joined_ns, rating)


@dataclass(slots=True)
class Opening:
    """Opens online matches in memory: ``gate`` holds them in flight, ``failure`` fails them;
    ``asked`` is set once one is asked for."""

    opened: list[MatchSpec] = field(default_factory=list)
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    failure: Unavailable | None = None
    asked: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.gate.set()

    async def online(self, first: Player, second: Player, game: Game, rated: bool) -> MatchSpec:
        self.asked.set()
        await self.gate.wait()
        if self.failure is not None:
            raise self.failure
        number = len(self.opened) + 1
        spec = matches.online(first, second, game, rated, MatchId(f"match-{number}"), number)
        self.opened.append(spec)
        return spec
