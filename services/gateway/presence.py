"""Which seats have a stream open here, told to the arbitration while they do.

A player whose play socket or Watch of their seat is open is there, even while thinking:
the arbitration counts a seat away only when nothing was heard from it for the away limit
(``services/arbitration/attendance.py``). So every few seconds (``PF_PRESENCE_EVERY_S``,
5 s: well under the away limit, 30 s) the gateway publishes one
``SeatsPresent`` naming every seat with a stream open on it, and a seat whose first
stream opens is named at once (a returning player is back without waiting for the
renewal). Spectators are nobody's presence: they are counted (``spectators``).
"""

from __future__ import annotations

from collections import Counter

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.natslink.link import NatsLink
from services.common.ticker import Ticker
from services.common.watching import SPECTATORS
from services.gateway.spectator_counts import SpectatorCounts
from wire import subjects

Seat = tuple[str, int]  # (match id, seat)


class Presence:
    """Counts the open streams of each seat and names the seats that have any."""

    def __init__(
        self, link: NatsLink, every_s: float = 5.0, spectators: SpectatorCounts | None = None
    ) -> None:
        self._link = link
        self._spectators = spectators
        self._open: Counter[Seat] = Counter()
        self._fresh: set[Seat] = set()
        self._renewer = Ticker(lambda: every_s, lambda _due, _ran: self._publish(self._open))

    def start(self) -> None:
        self._renewer.start()

    def stop(self) -> None:
        self._renewer.stop()

    def opened(self, match_id: str, seat: int) -> None:
        """A stream of ``seat`` opened (after the arbitration accepted it as the player's)."""
        if seat == SPECTATORS:
            if self._spectators is not None:
                self._spectators.opened(match_id)
            return
        key = (match_id, seat)
        self._open[key] += 1
        if self._open[key] == 1:
            if not self._fresh:
                self._link.loop.call_soon(self._publish_fresh)
            self._fresh.add(key)

    def closed(self, match_id: str, seat: int) -> None:
        if seat == SPECTATORS:
            if self._spectators is not None:
                self._spectators.closed(match_id)
            return
        key = (match_id, seat)
        if self._open.get(key, 0) <= 1:
            self._open.pop(key, None)
        else:
            self._open[key] -= 1

    def _publish_fresh(self) -> None:
        fresh, self._fresh = self._fresh, set()
        self._publish(fresh)

    def _publish(self, seats: Counter[Seat] | set[Seat]) -> None:
        if not seats or not self._link.is_connected:
            return
        present = arbitration_pb2.SeatsPresent(
            seats=[arbitration_pb2.SeatRef(match_id=m, seat=s) for m, s in seats]
        )
        self._link.publish(subjects.PRESENCE, present.SerializeToString())
