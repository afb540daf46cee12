"""Rematches: after an online match, the same two play again, same game and terms, once
both have offered it.

Each player's end screen follows the offers (``follow``) while it is open: it hears the
opponent offer, arrive and leave. ``offer`` offers the rematch, or accepts the opponent's:
the second offer opens the new match (seats drawn afresh, as for any match) and both
followers get it. An offer lasts while its player follows; leaving the end screen
withdraws it. Only the matches this process opened lately are known (``Recent``):
tournament games, games against the computer and hot-seat ones have no rematch here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from services.common.identity import Player, PlayerId
from services.common.opening.matches import Assignment, MatchId, MatchSpec, Mode, assignment
from services.matchmaking.errors import NotFound, Reason, Unavailable
from services.matchmaking.queues import OpenOnline

RECENT_KEPT = 10_000  # online matches remembered for a rematch, newest kept


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a rematch stands for one player; ``match`` once it is opened."""

    you_offer: bool
    opponent_offers: bool
    opponent_here: bool
    match: Assignment | None = None


class Recent:
    """The online matches opened lately, by id (oldest forgotten first)."""

    def __init__(self, kept: int = RECENT_KEPT) -> None:
        self._kept = kept
        self._specs: OrderedDict[MatchId, MatchSpec] = OrderedDict()

    def add(self, spec: MatchSpec) -> None:
        if spec.mode is not Mode.ONLINE:
            return
        self._specs[spec.match_id] = spec
        while len(self._specs) > self._kept:
            self._specs.popitem(last=False)

    def get(self, match_id: str) -> MatchSpec | None:
        return self._specs.get(MatchId(match_id))


@dataclass(slots=True, eq=False)
class _Table:
    spec: MatchSpec
    followers: dict[PlayerId, asyncio.Queue[Standing]] = field(default_factory=dict)
    offers: set[PlayerId] = field(default_factory=set)
    opened: MatchSpec | None = None


class Rematches:
    """The rematch offers of the matches whose players are at their end screens."""

    def __init__(self, recent: Recent, open_online: OpenOnline) -> None:
        self._recent = recent
        self._open_online = open_online
        self._tables: dict[MatchId, _Table] = {}

    @contextlib.asynccontextmanager
    async def follow(self, player: Player, match_id: str) -> AsyncIterator[asyncio.Queue[Standing]]:
        """Follow the rematch of ``match_id`` while the context is open; leaving withdraws
        the player's offer.

        Raises:
            NotFound: NO_REMATCH when the match is not an online match of the player's
                opened here lately.
        """
        table = self._table(player, match_id)
        updates: asyncio.Queue[Standing] = asyncio.Queue()
        table.followers[player.id] = updates
        self._tell(table)
        try:
            yield updates
        finally:
            if table.followers.get(player.id) is updates:
                del table.followers[player.id]
                table.offers.discard(player.id)
                self._tell(table)
            if not table.followers:
                self._tables.pop(table.spec.match_id, None)

    async def offer(self, player: Player, match_id: str) -> Standing:
        """Offer the rematch (or accept the opponent's offer); return where it stands.

        Raises:
            NotFound: as ``follow``.
            Unavailable: when arbitration did not open the new match.
        """
        table = self._table(player, match_id)
        table.offers.add(player.id)
        if table.opened is None and len(table.offers) == 2:
            await self._open(table)
        self._tell(table)
        return self._standing(table, player.id)

    def _table(self, player: Player, match_id: str) -> _Table:
        spec = self._recent.get(match_id)
        if spec is None or player.id not in {p.id for p in spec.players}:
            raise NotFound(
                Reason.NO_REMATCH,
                f"{match_id!r} is not an online match of yours that can be played again",
            )
        table = self._tables.get(spec.match_id)
        if table is None:
            table = self._tables[spec.match_id] = _Table(spec)
            if len(self._tables) > RECENT_KEPT:  # offers nobody follows: the oldest go
                del self._tables[next(iter(self._tables))]
        return table

    async def _open(self, table: _Table) -> None:
        first, second = table.spec.players
        try:
            opened = await self._open_online(first, second, table.spec.game, table.spec.rated)
        except Unavailable:
            table.offers.clear()  # nothing opened: both may offer again
            raise
        self._recent.add(opened)
        table.opened = opened

    def _standing(self, table: _Table, player_id: PlayerId) -> Standing:
        opponent = next(p.id for p in table.spec.players if p.id != player_id)
        opened = table.opened
        return Standing(
            you_offer=player_id in table.offers,
            opponent_offers=opponent in table.offers,
            opponent_here=opponent in table.followers,
            match=None if opened is None else assignment(opened, player_id),
        )

    def _tell(self, table: _Table) -> None:
        for player_id, updates in table.followers.items():
            updates.put_nowait(self._standing(table, player_id))


__all__ = ["Recent", "Rematches", "Standing"]
