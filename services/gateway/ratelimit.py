"""Commands per player per second, as a token bucket: a person never meets it, a flood does.

Each player (by the token's player id, whichever connection or tab the commands come on)
has a bucket of ``burst`` commands that refills at ``per_s`` a second. A command that finds
it empty is refused at the edge with RESOURCE_EXHAUSTED, reason ``rate_limited`` and a
``retry_after_ms`` hint; it never reaches the arbitration, so it changes nothing and is
logged nowhere. Spit against the hard computer, two tabs and a reload stay far below the
defaults (docs/protocol.md, "Limits").
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import grpc

from services.common.rejection import Rejection

PER_S = 10.0  # PF_COMMANDS_PER_S
BURST = 20.0  # PF_COMMANDS_BURST
_FORGET_AFTER_S = 60.0  # a bucket unused this long is full again: forgotten


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at_s: float


class CommandRate:
    """The token buckets of every player who sent a command lately."""

    def __init__(
        self,
        per_s: float = PER_S,
        burst: float = BURST,
        now: Callable[[], float] = time.monotonic,
        what: str = "commands",
    ) -> None:
        self._what = what  # what is counted, for the refusal's words
        self._per_s = per_s
        self._burst = burst
        self._now = now
        self._buckets: dict[str, _Bucket] = {}
        self._swept_s = now()

    def check(self, player_id: str) -> None:
        """Take one from the bucket of ``player_id`` (or whatever the buckets are keyed by).

        Raises:
            Rejection: RESOURCE_EXHAUSTED ``rate_limited`` when the bucket is empty.
        """
        wait_ms = self.take(player_id)
        if wait_ms:
            raise Rejection(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "rate_limited",
                f"more than {self._per_s:g} {self._what} a second (bursts of {self._burst:g});"
                f" send again in {wait_ms} ms",
                {"retry_after_ms": str(wait_ms)},
            )

    def take(self, key: str) -> int:
        """Take one from ``key``'s bucket; return 0, or the ms until it has one (taking none)."""
        wait_ms = self.wait_ms(key)
        if not wait_ms:
            self._buckets[key].tokens -= 1
        return wait_ms

    def wait_ms(self, key: str) -> int:
        """Return 0 when ``key``'s bucket has one to take, else the ms until it has one."""
        now = self._now()
        self._sweep(now)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self._burst, now)
        bucket.tokens = min(self._burst, bucket.tokens + (now - bucket.at_s) * self._per_s)
        bucket.at_s = now
        if bucket.tokens >= 1 - 1e-9:  # a refill of exactly one command, in floating point
            return 0
        return math.ceil((1 - bucket.tokens) / self._per_s * 1000)

    def _sweep(self, now: float) -> None:
        if now - self._swept_s < _FORGET_AFTER_S:
            return
        self._swept_s = now
        idle = [p for p, b in self._buckets.items() if now - b.at_s >= _FORGET_AFTER_S]
        for player_id in idle:
            del self._buckets[player_id]


SIGN_INS_PER_MINUTE = 30  # PF_SIGN_INS_PER_MINUTE, per client address


def sign_in_rate(per_minute: float = SIGN_INS_PER_MINUTE) -> CommandRate:
    """Return the buckets of sign-ins by client address: a guest token is free to make, so
    its making is what an address is held to (all of a minute's worth at once, at most)."""
    return CommandRate(per_minute / 60, per_minute, what="sign-ins")
