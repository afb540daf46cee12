"""How many streams one player, and one client address, may hold open at once: play
sockets, Watch, and every server stream the gateway forwards (the queue, challenges,
rematch offers, tournament watches).

A person needs a few: a socket per seat held, in a tab or two, a spectator's stream. A
token that opens hundreds holds the gateway's memory and file descriptors for nothing, so
past the limit a stream is refused with RESOURCE_EXHAUSTED ``too_many_streams``; one that
closes makes room at once. Per address too, since a guest token is free to make (but not
for the addresses named unlimited: by default this machine's own, where the bot pool, the
CLI and the benchmarks connect from).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator

import grpc

from services.common.rejection import Rejection

PER_PLAYER = 16  # PF_STREAMS_PER_PLAYER
PER_ADDRESS = 1024  # PF_STREAMS_PER_ADDRESS
# Addresses held to the per-player limit only (PF_STREAMS_UNLIMITED_ADDRESSES): this
# machine's own, where the bot pool and the benchmarks connect from.
LOOPBACK = frozenset({"127.0.0.1", "::1"})


class StreamLimits:
    """Counts the open match streams by player and by client address."""

    def __init__(
        self,
        per_player: int = PER_PLAYER,
        per_address: int = PER_ADDRESS,
        unlimited: frozenset[str] = LOOPBACK,
    ) -> None:
        self._per_player = per_player
        self._per_address = per_address
        self._unlimited = unlimited
        self._players: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()

    @property
    def unlimited(self) -> frozenset[str]:
        """The addresses held to no per-address limit (sign-ins included)."""
        return self._unlimited

    @contextlib.contextmanager
    def held(self, player_id: str, address: str) -> Iterator[None]:
        """Hold one stream for the context.

        Raises:
            Rejection: RESOURCE_EXHAUSTED ``too_many_streams`` past either limit.
        """
        if self._players[player_id] >= self._per_player:
            raise _too_many(f"this player already has {self._per_player} streams open")
        if address not in self._unlimited and self._addresses[address] >= self._per_address:
            raise _too_many(f"this address already has {self._per_address} streams open")
        self._players[player_id] += 1
        self._addresses[address] += 1
        try:
            yield
        finally:
            _release(self._players, player_id)
            _release(self._addresses, address)


def _release(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


def _too_many(why: str) -> Rejection:
    return Rejection(
        grpc.StatusCode.RESOURCE_EXHAUSTED, "too_many_streams", f"{why}; close one first"
    )
