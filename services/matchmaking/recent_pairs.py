"""Who was paired with whom lately in a rated queue, so the same two do not meet at once.

A rated pair is not paired again by the queue until ``cooldown_ns`` after they were last
paired: the loser cannot chase an immediate rematch, and two friends cannot trade wins
by queueing together. Players who want a rematch at once challenge each other by code.
Time is injected; entries older than the cooldown are forgotten as time passes.
"""

from __future__ import annotations

from collections.abc import Set

from services.common.identity import PlayerId


class RecentPairs:
    """The rated pairs made in the last ``cooldown_ns``, oldest first."""

    def __init__(self, cooldown_ns: int) -> None:
        self._cooldown_ns = cooldown_ns
        self._paired_at: dict[frozenset[PlayerId], int] = {}

    def add(self, a: PlayerId, b: PlayerId, now_ns: int) -> None:
        """Remember that ``a`` and ``b`` were paired at ``now_ns``."""
        key = frozenset((a, b))
        self._paired_at.pop(key, None)  # re-inserted last, keeping the dict oldest first
        self._paired_at[key] = now_ns

    def blocked(self, now_ns: int) -> Set[frozenset[PlayerId]]:
        """Return the pairs that may not meet at ``now_ns`` (a live view: do not keep it)."""
        expired = now_ns - self._cooldown_ns
        while self._paired_at:
            key, paired_at = next(iter(self._paired_at.items()))
            if paired_at > expired:
                break
            del self._paired_at[key]
        return self._paired_at.keys()
