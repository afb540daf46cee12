"""Who is still there: in an online match, so that a player whose opponent left can go on;
against the computer or on one device, so that a match its person left ends.

A seat is heard from when a command of it arrives and, every few seconds, while a
gateway holds a stream of it open (a play socket, or a Watch of the seat: the gateways'
``SeatsPresent`` on ``pf.arbitration.presence``). In an online match a seat not heard
from for the away limit (``PF_AWAY_S``, 30 s; counted from the opening for a seat never
heard from) is away: the worker logs it (an AWAY entry), both players see it, and the
other may Claim (``deciding``). A seat heard from again is back, logged the same way.

Against the computer and on one device nobody is left to claim: the bot never leaves,
and a hot-seat device holds both seats. Such a match whose person (both seats on one
device, the seat that is not the bot's against the computer) was not heard from for the
abandon limit (``PF_ABANDONED_S``, 600 s) is left alone: the worker ends it with no
result (a VOIDED entry, kind ``abandoned``), and its place among the player's live
matches comes free. Spit has no clock and a hot-seat hand-over waits for ever, so
without this such a match would never end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from services.arbitration.match import AwayChange, LeftAlone, Match
from services.common.ticker import Ticker

SWEEP_S = 1.0  # how often the held matches are looked over for seats gone quiet
SEATS = (0, 1)
# A person unheard this long has left a match against the computer or on one device
# (PF_ABANDONED_S): long enough for a pause, a phone call or a reload (docs/protocol.md).
ABANDONED_AFTER_S = 600.0
ALONE = frozenset({events_pb2.MODE_COMPUTER, events_pb2.MODE_HOTSEAT})


def attended(match: Match) -> bool:
    """Return whether ``match`` is one whose players may leave each other (online)."""
    return match.created.mode == events_pb2.MODE_ONLINE


def last_heard_ns(match: Match, seat: int) -> int:
    """Return when ``seat`` was last heard from (the opening, if never)."""
    return match.seen_ns.get(seat, match.opened_ns)


def person_seats(created: events_pb2.MatchCreated) -> tuple[int, ...]:
    """Return the seats whose silence ends a match: its person's against the computer (not
    the bot's) or on one device (both); none in an online match, whose seats are away."""
    if created.mode not in ALONE:
        return ()
    return tuple(seat for seat, player in enumerate(created.players) if not player.bot)


def person_last_heard_ns(match: Match) -> int:
    """Return when the match's person was last heard from, at any of their seats."""
    last_ns = 0
    for seat in match.person_seats:  # a plain loop: the sweep calls this for every match
        heard_ns = match.seen_ns.get(seat, match.opened_ns)
        if heard_ns > last_ns:
            last_ns = heard_ns
    return last_ns


def is_left_alone(match: Match, now_ns: int, limit_ns: int) -> bool:
    """Return whether ``match`` is live, against the computer or on one device, and its
    person was not heard from for ``limit_ns`` as of ``now_ns``."""
    if not match.person_seats or match.is_over():
        return False
    return now_ns - person_last_heard_ns(match) >= limit_ns


class Attendance:
    """Notes when each seat is heard from, and queues its going away and coming back."""

    def __init__(
        self,
        held: Callable[[], Iterable[Match]],
        find: Callable[[str], Match | None],
        away_after_s: float,
        now: Callable[[], int],
        abandoned_after_s: float = ABANDONED_AFTER_S,
    ) -> None:
        self._held = held
        self._find = find
        self._away_ns = int(away_after_s * 1e9)
        self._abandoned_ns = int(abandoned_after_s * 1e9)
        self._now = now
        self._sweeper = Ticker(lambda: SWEEP_S, lambda _due, _ran: self.sweep())

    def start(self) -> None:
        self._sweeper.start()

    def stop(self) -> None:
        self._sweeper.stop()

    def heard(self, match: Match, seat: int, at_ns: int) -> None:
        """Note that ``seat`` was heard from at ``at_ns``; queue its return if it was away."""
        if match.is_over() or seat not in SEATS:
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
        """Queue the going away of every attended seat not heard from for the away limit,
        and the end of every match left alone for the abandon limit."""
        now = self._now()
        for match in self._held():
            if match.is_over():
                continue
            if match.person_seats:  # the seats are known at the opening: no proto read here
                if not match.left_alone_queued and is_left_alone(match, now, self._abandoned_ns):
                    match.left_alone_queued = True  # once: the worker looks again when it comes
                    match.queue.put_nowait(LeftAlone())
                continue
            if not attended(match):
                continue
            for seat in SEATS:
                if seat not in match.away and now - last_heard_ns(match, seat) >= self._away_ns:
                    self._queue(match, AwayChange(seat, away=True))

    def is_away(self, match: Match, seat: int, now_ns: int) -> bool:
        """Return whether ``seat`` has not been heard from for the limit as of ``now_ns``."""
        return now_ns - last_heard_ns(match, seat) >= self._away_ns

    def is_left_alone(self, match: Match, now_ns: int) -> bool:
        """Return whether ``match``'s person has not been heard from for the abandon limit
        as of ``now_ns``, in a live match against the computer or on one device."""
        return is_left_alone(match, now_ns, self._abandoned_ns)

    @property
    def abandoned_after_s(self) -> float:
        return self._abandoned_ns / 1e9

    @staticmethod
    def _queue(match: Match, change: AwayChange) -> None:
        if change.seat in match.attendance_queued:
            return  # one change of a seat at a time; the worker looks again when it comes
        match.attendance_queued.add(change.seat)
        match.queue.put_nowait(change)
