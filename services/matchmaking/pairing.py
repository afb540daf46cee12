"""Which waiting tickets make a match: a pure function of the tickets and the time.

Two tickets may meet when they wait in the same queue, belong to two different players,
each rating lies within the *other* ticket's window (so within the narrower of the two,
see :mod:`services.matchmaking.window`), and, in a rated queue, the two players are not
a pair that was matched moments ago (``recent``, kept by the queues for a cooldown).

Fairness: tickets choose in the order they joined, the longest-waiting first. Each takes
the closest rating it may meet among the tickets not yet taken (a tie goes to the one
that waited longer). A ticket that finds nobody waits on; since the rule is symmetric,
nobody choosing after it could have met it either.

Speed: tickets are sorted by rating once, and each looks outwards from its own place
only as far as its window reaches, over a linked list that drops every ticket already
done with: about n log n for n tickets, not n².
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence, Set
from dataclasses import dataclass

from services.common.identity import PlayerId
from services.matchmaking.tickets import QueueKey, Ticket
from services.matchmaking.window import Window

DEFAULT_WINDOW = Window()

# Pairs of players who may not meet again yet in a rated queue.
Recent = Set[frozenset[PlayerId]]

_NONE = -1


@dataclass(frozen=True, slots=True)
class Pair:
    """Two tickets to seat at one match; ``first`` has waited longer."""

    first: Ticket
    second: Ticket


def is_rematch(a: Ticket, b: Ticket, recent: Recent) -> bool:
    """Return whether ``a`` and ``b`` are a rated pair that met too recently to meet again."""
    return a.queue.rated and frozenset((a.player.id, b.player.id)) in recent


def can_pair(
    a: Ticket,
    b: Ticket,
    now_ns: int,
    recent: Recent = frozenset(),
    window: Window = DEFAULT_WINDOW,
) -> bool:
    """Return whether ``a`` and ``b`` may meet at ``now_ns``: the module's rule."""
    return (
        a.queue == b.queue
        and a.player.id != b.player.id
        and abs(a.rating - b.rating)
        <= min(window.half_width(now_ns - a.since_ns), window.half_width(now_ns - b.since_ns))
        and not is_rematch(a, b, recent)
    )


def pair(
    waiting: Sequence[Ticket],
    now_ns: int,
    recent: Recent = frozenset(),
    window: Window = DEFAULT_WINDOW,
) -> tuple[Pair, ...]:
    """Return the matches to make now, in the order their first tickets joined.

    No ticket appears twice; a ticket nobody can meet stays waiting.
    """
    queues: dict[QueueKey, list[Ticket]] = {}
    for ticket in waiting:
        queues.setdefault(ticket.queue, []).append(ticket)
    pairs = [p for line in queues.values() for p in _pair_line(line, now_ns, recent, window)]
    return tuple(sorted(pairs, key=lambda p: p.first.order))


def _pair_line(line: Sequence[Ticket], now_ns: int, recent: Recent, window: Window) -> list[Pair]:
    """Pair the tickets of one queue."""
    by_wait = sorted(line, key=lambda t: t.order)
    widths = [window.half_width(now_ns - t.since_ns) for t in by_wait]
    ladder = _RatingLine(by_wait)
    pairs: list[Pair] = []
    for i, first in enumerate(by_wait):
        if ladder.is_done(i):
            continue
        j = _closest(i, by_wait, widths, ladder, recent)
        ladder.drop(i)  # paired or not, done: nobody after it could meet it (symmetry)
        if j != _NONE:
            ladder.drop(j)
            pairs.append(Pair(first, by_wait[j]))
    return pairs


def _closest(
    i: int, tickets: Sequence[Ticket], widths: Sequence[float], ladder: _RatingLine, recent: Recent
) -> int:
    """Return the ticket ``i`` meets (closest rating, then longest wait), or ``_NONE``."""
    me = tickets[i]
    best, best_key = _NONE, (0.0, 0)
    for side in (ladder.down, ladder.up):
        j = side[i]
        while j != _NONE:
            other = tickets[j]
            gap = abs(me.rating - other.rating)
            # Nearest first along a side: past the reach, or past a find, nothing better.
            if gap > widths[i] or (best != _NONE and gap > best_key[0]):
                break
            key = (gap, other.order)
            if (best == _NONE or key < best_key) and _accepts(other, widths[j], me, gap, recent):
                best, best_key = j, key
            j = side[j]
    return best


def _accepts(other: Ticket, width: float, me: Ticket, gap: float, recent: Recent) -> bool:
    """Return whether ``other`` (window ``width``) may meet ``me``, already within my reach."""
    return gap <= width and me.player.id != other.player.id and not is_rematch(me, other, recent)


class _RatingLine:
    """The tickets of one queue in rating order, as a linked list tickets leave in O(1).

    ``down[k]``/``up[k]`` are the nearest tickets still in the line below and above ``k``.
    """

    def __init__(self, tickets: Sequence[Ticket]) -> None:
        ordered = sorted(range(len(tickets)), key=lambda k: (tickets[k].rating, tickets[k].order))
        self.down = [_NONE] * len(tickets)
        self.up = [_NONE] * len(tickets)
        for lower, upper in itertools.pairwise(ordered):
            self.up[lower], self.down[upper] = upper, lower
        self._done = [False] * len(tickets)

    def is_done(self, k: int) -> bool:
        return self._done[k]

    def drop(self, k: int) -> None:
        """Take ticket ``k`` out of the line (paired, or done choosing)."""
        down, up = self.down[k], self.up[k]
        if down != _NONE:
            self.up[down] = up
        if up != _NONE:
            self.down[up] = down
        self._done[k] = True
