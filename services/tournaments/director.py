"""The live side of tournaments: start and end on time, pair idle players, publish standings.

One loop for every tournament of this process. A pairing round runs every
``pairing_interval_s``; results and joins wake the loop early to refresh the standings
only, so pairs are always formed from a whole round's idle players. The store is the one
source of truth: every round reads the tournament's entrants and games from it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable, Mapping, Sequence

from games.seats import Seat
from services.common.identity import Player, PlayerId
from services.common.opening import matches
from services.common.opening.codec import match_assignment
from services.common.opening.request import Arbitration, NoAnswer
from services.tournaments import codec, metrics
from services.tournaments.hub import Hub
from services.tournaments.lineup import idle_players, recent_opponents
from services.tournaments.model import (
    Entrant,
    GameStatus,
    Status,
    Tournament,
    TournamentGame,
)
from services.tournaments.pairing import pair
from services.tournaments.standings import rank
from services.tournaments.store import Store

log = logging.getLogger("tournaments")

ACTIVE = (Status.UPCOMING, Status.LIVE, Status.ENDING)
ACTIVE_LIMIT = 10_000


def wall_ms() -> int:
    return int(time.time() * 1000)


class Director:
    """Runs every active tournament: status changes, pairing rounds, standings."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        arbitration: Arbitration,
        pairing_interval_s: float,
        overtime_s: float,
        clock_ms: Callable[[], int] = wall_ms,
    ) -> None:
        self.store, self.hub, self.arbitration = store, hub, arbitration
        self.pairing_interval_s = pairing_interval_s
        self.overtime_ms = int(overtime_s * 1000)
        self.clock_ms = clock_ms
        self._poke = asyncio.Event()
        # Stored but not yet opened by the arbitration: nobody is told of these yet.
        self._opening: set[str] = set()

    def poke(self) -> None:
        """Refresh the standings soon (a result came in, someone joined or withdrew)."""
        self._poke.set()

    async def run(self) -> None:
        """Run rounds until cancelled: a pairing round each interval, refreshes between."""
        loop = asyncio.get_running_loop()
        next_round = loop.time()
        while True:
            now = loop.time()
            pairing = now >= next_round
            if pairing:
                next_round = now + self.pairing_interval_s
            # Cleared before the round, so a poke while it runs brings another one.
            self._poke.clear()
            await self.round(pairing)
            try:
                async with asyncio.timeout(max(0.0, next_round - loop.time())):
                    await self._poke.wait()
            except TimeoutError:
                pass

    async def round(self, pairing: bool) -> None:
        """Advance every active tournament once; pair idle players when ``pairing``."""
        for tournament in await self.store.tournaments(ACTIVE, ACTIVE_LIMIT):
            await self.advance(tournament, pairing)

    async def advance(self, t: Tournament, pairing: bool) -> None:
        now_ms = self.clock_ms()
        t = await self._next_status(t, now_ms)
        entrants = await self.store.entrants(t.id)
        games = await self.store.games(t.id)
        if t.status is Status.LIVE and pairing and await self._pair(t, entrants, games, now_ms):
            games = await self.store.games(t.id)
        if t.status is Status.ENDING and now_ms >= t.ends_at_ms + self.overtime_ms:
            abandoned = await self.store.abandon_playing(t.id, now_ms)
            if abandoned:
                log.warning(
                    "games abandoned", extra={"fields": {"tournament": t.id, "games": abandoned}}
                )
                games = await self.store.games(t.id)
        lines = rank(entrants, games)
        if t.status is Status.ENDING and not any(g.status is GameStatus.PLAYING for g in games):
            await self.store.finish(t.id, lines)
            t = _with_status(t, Status.FINISHED)
            log.info(
                "tournament finished", extra={"fields": {"tournament": t.id, "games": len(games)}}
            )
            self.hub.publish(t.id, codec.standings(t, lines))
            self.hub.forget(t.id)
            return
        self.hub.publish(t.id, codec.standings(t, lines))

    async def current_match(self, t: Tournament, player_id: PlayerId) -> TournamentGame | None:
        """Return the game ``player_id`` is playing in ``t`` now, if any.

        A game still being opened is not one yet: its match is unknown to the arbitration
        until it is, and the player hears of it from the hub once it is.
        """
        for game in await self.store.games(t.id):
            if (
                game.status is GameStatus.PLAYING
                and player_id in game.players
                and game.match_id not in self._opening
            ):
                return game
        return None

    async def _next_status(self, t: Tournament, now_ms: int) -> Tournament:
        wanted = t.status
        if wanted is Status.UPCOMING and now_ms >= t.starts_at_ms:
            wanted = Status.LIVE
        if wanted is Status.LIVE and now_ms >= t.ends_at_ms:
            wanted = Status.ENDING
        if wanted is not t.status:
            await self.store.set_status(t.id, wanted)
            log.info(
                "tournament status", extra={"fields": {"tournament": t.id, "status": str(wanted)}}
            )
            t = _with_status(t, wanted)
        return t

    async def _pair(
        self,
        t: Tournament,
        entrants: Sequence[Entrant],
        games: Sequence[TournamentGame],
        now_ms: int,
    ) -> bool:
        """Open a match for each pair of idle players; return whether any was opened."""
        started = time.perf_counter()
        idle = idle_players(entrants, games, rank(entrants, games))
        pairs = pair(idle, recent_opponents(games))
        metrics.PAIRING_ROUND.observe(time.perf_counter() - started)
        if not pairs:
            return False
        # As seated at the match: the guest mark reaches the match header.
        players = {e.player_id: Player(e.player_id, e.name, guest=e.guest) for e in entrants}
        since = {i.player_id: i.idle_since_ms for i in idle}
        for high, low in pairs:
            for player in (high, low):
                metrics.PAIRING_WAIT.observe(max(0, now_ms - since[player]) / 1000)
        opened = await asyncio.gather(
            *(self._open(t, players[high], players[low], now_ms) for high, low in pairs)
        )
        return any(opened)

    async def _open(self, t: Tournament, first: Player, second: Player, now_ms: int) -> bool:
        """Store one game, have its match opened, then tell both players; return if opened."""
        spec = dataclasses.replace(
            matches.online(
                first, second, t.game, t.rated, matches.fresh_match_id(), matches.fresh_seed()
            ),
            tournament_id=t.id,
            tournament_name=t.name,
        )
        seats = (spec.players[0].id, spec.players[1].id)
        # Stored before arbitration opens it, so its result always finds the game.
        self._opening.add(spec.match_id)
        try:
            await self.store.add_game(t.id, TournamentGame(spec.match_id, seats, now_ms))
            await self.arbitration.open_match(spec)
        except NoAnswer as error:
            metrics.OPEN_FAILURES.inc()
            await self.store.forget_game(spec.match_id)
            log.warning(
                "tournament match not opened",
                extra={"fields": {"tournament": t.id, "why": error.detail}},
            )
            return False
        finally:
            self._opening.discard(spec.match_id)
        metrics.GAMES_OPENED.inc()
        for player in seats:
            self.hub.assign(t.id, player, match_assignment(matches.assignment(spec, player)))
        return True


def assignment_of(
    game: TournamentGame, t: Tournament, names: Mapping[PlayerId, str], player_id: PlayerId
) -> matches.Assignment:
    """Return what ``player_id`` is told about a game of theirs in progress."""
    seats = tuple(Seat(seat) for seat, p in enumerate(game.players) if p == player_id)
    return matches.Assignment(
        matches.MatchId(game.match_id),
        t.game,
        seats,
        t.rated,
        (names.get(game.players[0], ""), names.get(game.players[1], "")),
    )


def _with_status(t: Tournament, status: Status) -> Tournament:
    return dataclasses.replace(t, status=status)
