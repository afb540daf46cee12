"""Who plays whom next: idle entrants paired near each other in the standings.

Pure: a function of the idle players (with their rank and since when they are idle) and
each player's recent opponents. Greedy from the top of the standings: each player takes
the nearest-ranked idle player below who is not among either's last ``AVOID_LAST``
opponents; when every candidate left is such a recent opponent, the nearest one is taken
anyway, so nobody waits for lack of fresh opponents. With an odd number idle, the player
idle for the shortest time waits for the next round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from services.common.identity import PlayerId

AVOID_LAST = 2  # a player is not paired with their last two opponents while others are idle

Pair = tuple[PlayerId, PlayerId]


@dataclass(frozen=True, slots=True)
class Idle:
    """A player waiting to be paired: their place in the standings and since when idle."""

    player_id: PlayerId
    rank: int  # 1 = top of the standings
    idle_since_ms: int


def pair(
    idle: Sequence[Idle],
    recent: Mapping[PlayerId, Sequence[PlayerId]],
    avoid_last: int = AVOID_LAST,
) -> list[Pair]:
    """Return the pairs to open now, the higher-ranked player first in each.

    ``recent[p]`` lists p's opponents, oldest first; only the last ``avoid_last`` matter.
    """
    waiting = sorted(idle, key=lambda i: (i.rank, i.player_id))
    if len(waiting) % 2:
        # The most recently idle waits (ties: the lower-ranked one).
        sitter = max(waiting, key=lambda i: (i.idle_since_ms, i.rank, i.player_id))
        waiting.remove(sitter)
    avoid = {i.player_id: set(recent.get(i.player_id, ())[-avoid_last:]) for i in waiting}
    taken = [False] * len(waiting)
    pairs: list[Pair] = []
    for i, high in enumerate(waiting):
        if taken[i]:
            continue
        taken[i] = True
        chosen = nearest = -1
        for j in range(i + 1, len(waiting)):
            if taken[j]:
                continue
            if nearest < 0:
                nearest = j
            low = waiting[j].player_id
            if low not in avoid[high.player_id] and high.player_id not in avoid[low]:
                chosen = j
                break
        pick = chosen if chosen >= 0 else nearest
        taken[pick] = True
        pairs.append((high.player_id, waiting[pick].player_id))
    return pairs
