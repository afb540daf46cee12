"""Which waiting tickets make a match: a pure function of the tickets and the time.

This issue pairs first come, first served. The rating-window pairing planned next (Glicko
ratings, windows widening with ``now_ns - since_ns``, no immediate rematches) replaces the
body of :func:`pair` and :func:`can_pair`; the callers stay as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from services.matchmaking.tickets import Ticket


@dataclass(frozen=True, slots=True)
class Pair:
    """Two tickets to seat at one match; ``first`` has waited longer."""

    first: Ticket
    second: Ticket


def can_pair(a: Ticket, b: Ticket) -> bool:
    """Return whether ``a`` and ``b`` may meet: same queue, two different players."""
    return a.queue == b.queue and a.player.id != b.player.id


def pair(waiting: Sequence[Ticket], now_ns: int) -> tuple[Pair, ...]:
    """Return the matches to make now, longest-waiting tickets first.

    Repeatedly takes the longest-waiting unpaired ticket and the longest-waiting other
    ticket it can meet. No ticket appears twice; a ticket nobody can meet stays waiting.
    ``now_ns`` is unused by first-come pairing; rating windows widen with it.
    """
    line = sorted(waiting, key=lambda ticket: ticket.order)
    taken: set[int] = set()
    pairs: list[Pair] = []
    for i, first in enumerate(line):
        if first.order in taken:
            continue
        for second in line[i + 1 :]:
            if second.order not in taken and can_pair(first, second):
                taken.update((first.order, second.order))
                pairs.append(Pair(first, second))
                break
    return tuple(pairs)
