"""The queues: who waits where, pairing them, and telling the players.

A queue is paired whenever it changes and, since rating windows widen with the wait, again
every ``pairing_interval_s`` while anyone waits (:meth:`Queues.keep_pairing`). A ticket
carries the player's rating in its game, read once when the ticket is made.

One queue per (game, rated). A player holds at most one ticket per game, across rated and
casual: a second Queue call for the same game *replaces* the first (the old stream ends
with ABORTED ``ticket_replaced``), so a client that reconnects before the server has seen
its old stream close is not locked out. A replacement in the same queue keeps the old
ticket's place in line. While a paired ticket's match is being opened (one NATS round
trip) the player cannot queue for that game again (FAILED_PRECONDITION).

A paired match is opened by a task of its own, not by either player's call: if one player
leaves during that round trip the other still gets the match, and the leaver is a no-show
for arbitration to handle. If arbitration does not answer, both streams end UNAVAILABLE.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass

from games.registry import GAMES, Game
from services.common.identity import Player, PlayerId
from services.common.opening.matches import Assignment, MatchSpec, assignment
from services.matchmaking import pairing
from services.matchmaking.errors import (
    MatchmakingError,
    Reason,
    Refused,
    Superseded,
    Unavailable,
)
from services.matchmaking.metrics import QUEUE_LENGTH, WAIT_SECONDS
from services.matchmaking.ratings import newcomer_rating
from services.matchmaking.recent_pairs import RecentPairs
from services.matchmaking.tickets import QueueKey, Ticket, Waiting
from services.matchmaking.window import NS_PER_S

log = logging.getLogger(__name__)

# Opens a match between two people: (longest waiting, other, game, rated) -> the match.
OpenOnline = Callable[[Player, Player, Game, bool], Awaitable[MatchSpec]]

# Decides which tickets of one queue meet now: (waiting, now_ns, recent pairs) -> pairs.
Pairing = Callable[[Sequence[Ticket], int, pairing.Recent], tuple[pairing.Pair, ...]]

# A player's rating in a game, for their ticket: (player, game) -> rating.
RatingOf = Callable[[PlayerId, Game], Awaitable[float]]


@dataclass(frozen=True, slots=True)
class Closed:
    """The last update of a ticket that ends without a match (``error`` None: cancelled)."""

    error: MatchmakingError | None = None


@dataclass(slots=True, eq=False)
class _Holder:
    """A ticket and the inbox of the stream that holds it."""

    ticket: Ticket
    inbox: asyncio.Queue[Waiting | Assignment | Closed]
    told: int = 0  # the last waiting count sent
    opening: bool = False

    @property
    def key(self) -> tuple[PlayerId, Game]:
        return (self.ticket.player.id, self.ticket.queue.game)


class Queues:
    """Every queue of the service, the tickets in them and the matches being opened."""

    def __init__(
        self,
        open_online: OpenOnline,
        pair: Pairing = pairing.pair,
        now_ns: Callable[[], int] = time.monotonic_ns,
        rating_of: RatingOf = newcomer_rating,
        rematch_cooldown_s: float = 600.0,
    ) -> None:
        self._open_online = open_online
        self._pair = pair
        self._now_ns = now_ns
        self._rating_of = rating_of
        self._recent = {game: RecentPairs(round(rematch_cooldown_s * NS_PER_S)) for game in GAMES}
        self._lines: dict[QueueKey, list[_Holder]] = {}
        self._holders: dict[tuple[PlayerId, Game], _Holder] = {}
        self._orders = itertools.count(1)
        self._openings: set[asyncio.Task[None]] = set()
        for game in GAMES:  # every queue is exported from the start, empty
            for rated in (False, True):
                QUEUE_LENGTH.labels(str(game), str(rated).lower()).set(0)

    def length(self, queue: QueueKey) -> int:
        """Return how many tickets wait in ``queue``."""
        return len(self._lines.get(queue, ()))

    @contextlib.asynccontextmanager
    async def ticket(
        self, player: Player, queue: QueueKey
    ) -> AsyncIterator[AsyncIterator[Waiting | Assignment]]:
        """Hold a ticket in ``queue`` while the context is open; yield its updates.

        The updates end after the match or when the ticket is cancelled.

        Raises:
            Refused: when a match of this game is being opened for the player.
            Superseded: (from the updates) when a newer ticket replaced this one.
            Unavailable: (from the updates) when the paired match could not be opened.
        """
        rating = await self._rating_of(player.id, queue.game)
        holder = self._join(player, queue, rating)
        updates = _follow(holder.inbox)
        try:
            yield updates
        finally:
            await updates.aclose()
            self._leave(holder)

    def cancel(self, player_id: PlayerId, game: Game) -> bool:
        """Return whether a waiting ticket of ``player_id`` for ``game`` was withdrawn."""
        holder = self._holders.get((player_id, game))
        if holder is None or holder.opening:
            return False
        self._withdraw(holder)
        holder.inbox.put_nowait(Closed())
        self._settle(holder.ticket.queue)
        return True

    async def keep_pairing(self, interval_s: float) -> None:
        """Pair every queue again each ``interval_s``, for the windows that widened; forever."""
        while True:
            await asyncio.sleep(interval_s)
            for queue, line in list(self._lines.items()):
                if len(line) > 1:
                    self._settle(queue)

    def _join(self, player: Player, queue: QueueKey, rating: float) -> _Holder:
        old = self._holders.get((player.id, queue.game))
        if old is not None and old.opening:
            detail = f"a {queue.game} match is being opened for {player}"
            raise Refused(Reason.MATCH_BEING_OPENED, detail)
        order, since_ns = next(self._orders), self._now_ns()
        if old is not None:
            if old.ticket.queue == queue:
                order, since_ns = old.ticket.order, old.ticket.since_ns
                self._lines[queue].remove(old)
            else:
                self._withdraw(old)
                self._settle(old.ticket.queue)
            detail = f"a newer {queue} ticket of {player} replaced this one"
            old.inbox.put_nowait(Closed(Superseded(Reason.TICKET_REPLACED, detail)))
        holder = _Holder(Ticket(order, player, queue, since_ns, rating), asyncio.Queue())
        self._holders[holder.key] = holder
        line = self._lines.setdefault(queue, [])
        line.append(holder)
        line.sort(key=lambda h: h.ticket.order)
        self._settle(queue)
        return holder

    def _leave(self, holder: _Holder) -> None:
        """Withdraw ``holder`` if it still waits (its stream closed or was cancelled)."""
        if self._holders.get(holder.key) is holder and not holder.opening:
            self._withdraw(holder)
            self._settle(holder.ticket.queue)

    def _withdraw(self, holder: _Holder) -> None:
        """Take a waiting ticket out of its queue and out of the holders, unannounced."""
        self._lines[holder.ticket.queue].remove(holder)
        del self._holders[holder.key]
        self._observe_wait(holder, "left")

    def _settle(self, queue: QueueKey) -> None:
        """Pair what can be paired in ``queue``, then tell the rest how many wait."""
        line = self._lines.get(queue, [])
        by_order = {h.ticket.order: h for h in line}
        now_ns = self._now_ns()
        recent = self._recent[queue.game]
        blocked = recent.blocked(now_ns) if queue.rated else frozenset()
        for found in self._pair([h.ticket for h in line], now_ns, blocked):
            first, second = by_order[found.first.order], by_order[found.second.order]
            if queue.rated:
                recent.add(first.ticket.player.id, second.ticket.player.id, now_ns)
            for holder in (first, second):
                line.remove(holder)
                holder.opening = True
                self._observe_wait(holder, "paired")
            task = asyncio.create_task(self._open(first, second))
            self._openings.add(task)
            task.add_done_callback(self._opened)
        for holder in line:
            if holder.told != len(line):
                holder.told = len(line)
                holder.inbox.put_nowait(Waiting(len(line)))
        QUEUE_LENGTH.labels(str(queue.game), str(queue.rated).lower()).set(len(line))

    async def _open(self, first: _Holder, second: _Holder) -> None:
        """Open the match of a pair and tell both holders how it went."""
        queue = first.ticket.queue
        told = False
        try:
            spec = await self._open_online(
                first.ticket.player, second.ticket.player, queue.game, queue.rated
            )
            for holder in (first, second):
                holder.inbox.put_nowait(assignment(spec, holder.ticket.player.id))
            told = True
        except Unavailable as error:
            for holder in (first, second):
                holder.inbox.put_nowait(Closed(error))
            told = True
        finally:
            if not told:  # cancelled at shutdown, or a bug the done callback logs
                lost = Unavailable(Reason.NO_ARBITRATION, "the match could not be opened")
                for holder in (first, second):
                    holder.inbox.put_nowait(Closed(lost))
            for holder in (first, second):
                if self._holders.get(holder.key) is holder:
                    del self._holders[holder.key]

    def _opened(self, task: asyncio.Task[None]) -> None:
        self._openings.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("opening a queued match failed", exc_info=error)

    def _observe_wait(self, holder: _Holder, outcome: str) -> None:
        queue = holder.ticket.queue
        waited_s = (self._now_ns() - holder.ticket.since_ns) / 1e9
        WAIT_SECONDS.labels(str(queue.game), str(queue.rated).lower(), outcome).observe(waited_s)


async def _follow(
    inbox: asyncio.Queue[Waiting | Assignment | Closed],
) -> AsyncGenerator[Waiting | Assignment, None]:
    """Yield a ticket's updates until its match or its end.

    Raises:
        MatchmakingError: the error the ticket ended with.
    """
    while True:
        update = await inbox.get()
        if isinstance(update, Closed):
            if update.error is not None:
                raise update.error
            return
        yield update
        if isinstance(update, Assignment):
            return
