"""Who watches which tournament: the latest standings for all, pairings for their player.

A slow watcher never holds anyone up and never gets stale standings: only the latest
standings are kept for it (older ones are replaced), while its own pairings queue up in
order and are never dropped.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

from photofinish.matchmaking.v1 import matchmaking_pb2
from photofinish.tournaments.v1 import tournaments_pb2 as pb
from services.common.identity import PlayerId
from services.tournaments.model import TournamentId


class Watcher:
    """One open WatchTournament stream."""

    def __init__(self, player_id: PlayerId) -> None:
        self.player_id = player_id
        self._standings: pb.Standings | None = None
        self._matches: deque[matchmaking_pb2.MatchAssignment] = deque()
        self._news = asyncio.Event()
        self.closed = False

    def offer_standings(self, standings: pb.Standings) -> None:
        self._standings = standings
        self._news.set()

    def offer_match(self, match: matchmaking_pb2.MatchAssignment) -> None:
        self._matches.append(match)
        self._news.set()

    def close(self) -> None:
        self.closed = True
        self._news.set()

    async def updates(self) -> AsyncIterator[pb.TournamentUpdate]:
        """Yield pairings first, then the latest standings, as they come; end on close."""
        while not self.closed:
            await self._news.wait()
            self._news.clear()
            while self._matches:
                yield pb.TournamentUpdate(match=self._matches.popleft())
            standings, self._standings = self._standings, None
            if standings is not None:
                yield pb.TournamentUpdate(standings=standings)


class Hub:
    """Every watcher by tournament, and the last standings sent for each tournament."""

    def __init__(self) -> None:
        self._watchers: dict[TournamentId, set[Watcher]] = defaultdict(set)
        self._last: dict[TournamentId, pb.Standings] = {}

    @contextmanager
    def watching(  # the caller sends the current standings itself, right after this
        self, tournament_id: TournamentId, player_id: PlayerId
    ) -> Iterator[Watcher]:
        watcher = Watcher(player_id)
        self._watchers[tournament_id].add(watcher)
        try:
            yield watcher
        finally:
            self._watchers[tournament_id].discard(watcher)
            if not self._watchers[tournament_id]:
                del self._watchers[tournament_id]

    def publish(self, tournament_id: TournamentId, standings: pb.Standings) -> bool:
        """Send ``standings`` to every watcher if they changed; return whether they did."""
        if self._last.get(tournament_id) == standings:
            return False
        self._last[tournament_id] = standings
        for watcher in self._watchers.get(tournament_id, ()):
            watcher.offer_standings(standings)
        return True

    def assign(
        self,
        tournament_id: TournamentId,
        player_id: PlayerId,
        match: matchmaking_pb2.MatchAssignment,
    ) -> None:
        """Tell ``player_id``'s watchers (and only theirs) of their new game."""
        for watcher in self._watchers.get(tournament_id, ()):
            if watcher.player_id == player_id:
                watcher.offer_match(match)

    def forget(self, tournament_id: TournamentId) -> None:
        """Close every watcher of a finished tournament once they have the final standings."""
        for watcher in self._watchers.get(tournament_id, ()):
            watcher.close()
        self._last.pop(tournament_id, None)
