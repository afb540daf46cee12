"""Who is still there in an online match, so that a player whose opponent left can go on.

A seat is heard from when a command of it arrives and, every few seconds, while a
gateway holds a stream of it open (a play socket, or a Watch of the seat: the gateways'
``SeatsPresent`` on ``pf.arbitration.presence``). A seat not heard from for the away
limit (``PF_AWAY_S``, 30 s; counted from the opening for a seat never heard from) is
away: the worker logs it (an AWAY entry), both players see it, and the other may Claim
(``referee``). A seat heard from again is back, logged the same way. Only online matches
are attended: a hot-seat device holds both seats, and the computer never leaves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from services.arbitration.match import AwayChange, Match
from services.common.ticker import Ticker

SWEEP_S = 1.0  # how often the held matches are looked over for seats gone quiet
SEATS = (0, 1)


def attended(match: Match) -> bool:
    """Return whether ``match`` is one whose players may leave each other (online)."""
    return match.created.mode == events_pb2.MODE_ONLINE


def last_heard_ns(match: Match, seat: int) -> int:
    """Return when ``seat`` was last heard from (the opening, if never)."""
    return match.seen_ns.get(seat, match.opened_ns)


class Attendance:
    """Notes when each seat is heard from, and queues its going away and coming back."""

    def __init__(
        self,
        held: Callable[[], Iterable[Match]],
        find: Callable[[str], Match | None],
        away_after_s: float,
        now: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self._held = held
        self._find = find
        self._away_ns = int(away_after_s * 1e9)
        self._now = now
        self._sweeper = Ticker(lambda: SWEEP_S, lambda _due, _ran: self.sweep())

    def start(self) -> None:
        self._sweeper.start()

    def stop(self) -> None:
        self._sweeper.stop()

    def heard(self, match: Match, seat: int, at_ns: int) -> None:
        """Note that ``seat`` was heard from at ``at_ns``; queue its return if it was away."""
        if not attended(match) or match.is_over() or seat not in SEATS:
            return
        match.seen_ns[seat] = max(match.seen_ns.get(seat, 0), at_ns)
        if seat in match.away:
            self._queue(match, AwayChange(seat, away=False))

    def on_presence(self, data: bytes) -> None:
        """Take a gateway's SeatsPresent: every seat it names was heard from now."""
        now = self._now()
        for ref in arbitration_pb2.SeatsPresent.FromString(data).seats:
            match = self._find(ref.match_id)
            if match is not None:
                self.heard(match, ref.seat, now)

    def sweep(self) -> None:
        """Queue the going away of every attended seat not heard from for the limit."""
        now = self._now()
        for match in self._held():
            if not attended(match) or match.is_over():
                continue
            for seat in SEATS:
                if seat not in match.away and now - last_heard_ns(match, seat) >= self._away_ns:
                    self._queue(match, AwayChange(seat, away=True))

    def is_away_now(self, match: Match, seat: int) -> bool:
        """Return whether ``seat`` has not been heard from for the limit (as of now)."""
        return self._now() - last_heard_ns(match, seat) >= self._away_ns

    @staticmethod
    def _queue(match: Match, change: AwayChange) -> None:
        if change.seat in match.attendance_queued:
            return  # one change of a seat at a time; the worker looks again when it comes
        match.attendance_queued.add(change.seat)
        match.queue.put_nowait(change)
