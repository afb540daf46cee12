"""Failed sign-ins, slowed down: exponential back-off per name and address, and per address.

After a few free failures, each further failure doubles the wait before the next attempt:
for one name from one address (guessing one account's password), and for one address
across every name (trying one password on many accounts). The owner is never locked out:
their own address has its own count for their name, and a passkey is not slowed at all.
Kept in memory: a restart forgets the counts (the metric keeps the history). Pure: time
is passed in.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

FREE_PER_NAME = 5  # failures of one name from one address before any wait
FREE_PER_ADDRESS = 20  # failures from one address, over every name, before any wait
FIRST_WAIT_S = 1.0
LONGEST_WAIT_S = 15 * 60.0
FORGET_AFTER_S = 24 * 3600.0  # a count with no failure for this long starts again
MAX_KEPT = 100_000  # counts kept at most; the least recently failed are dropped first


@dataclass(slots=True)
class _Count:
    failures: int
    last_failed_s: float


class Attempts:
    """Counts of failed sign-ins, and how long each caller must wait before the next."""

    def __init__(self) -> None:
        self._counts: OrderedDict[tuple[str, str], _Count] = OrderedDict()

    def wait_s(self, name_key: str, address: str, now_s: float) -> float:
        """Return how long (s) this caller must wait before trying ``name_key`` (0: now)."""
        return max(
            self._wait(("name", f"{name_key}\x00{address}"), FREE_PER_NAME, now_s),
            self._wait(("address", address), FREE_PER_ADDRESS, now_s),
        )

    def failed(self, name_key: str, address: str, now_s: float) -> None:
        for key in (("name", f"{name_key}\x00{address}"), ("address", address)):
            count = self._counts.pop(key, None)
            if count is None or now_s - count.last_failed_s >= FORGET_AFTER_S:
                count = _Count(0, now_s)
            count.failures += 1
            count.last_failed_s = now_s
            self._counts[key] = count  # now the most recently failed
        while len(self._counts) > MAX_KEPT:
            self._counts.popitem(last=False)

    def succeeded(self, name_key: str, address: str) -> None:
        """The right password: this name's count from this address starts again."""
        self._counts.pop(("name", f"{name_key}\x00{address}"), None)

    def _wait(self, key: tuple[str, str], free: int, now_s: float) -> float:
        count = self._counts.get(key)
        if count is None or count.failures < free:
            return 0.0
        if now_s - count.last_failed_s >= FORGET_AFTER_S:
            return 0.0
        doublings = min(count.failures - free, 40)  # the wait is capped long before this
        wait: float = min(LONGEST_WAIT_S, FIRST_WAIT_S * 2.0**doublings)
        return max(0.0, count.last_failed_s + wait - now_s)
