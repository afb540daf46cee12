"""The matches this gateway follows: one subscription a match, each seat's update handed on
to that seat's streams only, and the answers that came with them to the Submits they settle.

The arbitration publishes both seats' updates of a change in one message (``SeatUpdates``
on ``pf.match.<id>.seats``), with the answers to the commands that made it when the
gateway that forwarded them follows the match (a play socket's: ``submits.py``), and the
spectators' updates on ``pf.match.<id>.public``. However many streams follow a match here
(a play socket or a Watch for each seat, spectators), the gateway subscribes each subject
once, and gives each stream the bytes of its own seat and nothing else: the other seat's
update is dropped here, never queued for a stream.

Core NATS delivers nothing to a connection that is down: when the link comes back
(``catch_up``), every stream here asks for its seat's latest update, which goes out if it
is news, with the whole view (a change published meanwhile never came).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.common.watching import SPECTATORS
from wire import subjects

# After a reconnect the streams ask for their latest updates one after another, this far
# apart and all within CATCH_UP_WITHIN_S: thousands of asks at once could keep the
# arbitration's event loop busy long enough to be a timing fault (docs/timing-faults.md).
CATCH_UP_EVERY_S = 0.001
CATCH_UP_WITHIN_S = 2.0

OnUpdate = Callable[[bytes], None]  # a seat's encoded MatchUpdate
OnCatchUp = Callable[[], None]  # ask for the seat's latest update: some may have been lost
Unfollow = Callable[[], None]
# Answers that came with an update, and the reply subject of their batch (submits.py).
OnAnswers = Callable[[str, Iterable[arbitration_pb2.SubmitAnswer]], None]


class _Subject:
    """One subscribed subject of a match, and who follows which of its seats."""

    def __init__(self, on_answers: OnAnswers) -> None:
        self.sid = 0
        self.by_seat: dict[int, dict[int, OnUpdate]] = {}
        self.catch_ups: dict[int, OnCatchUp] = {}  # by follower number
        self._on_answers = on_answers

    def on_seats(self, message: Message) -> None:
        seats = arbitration_pb2.SeatUpdates.FromString(message.data)
        updates = seats.updates
        for seat, followers in list(self.by_seat.items()):  # a follower may stop meanwhile
            if seat < len(updates) and updates[seat]:
                for on_update in list(followers.values()):
                    on_update(updates[seat])
        # After the updates: a socket's answer and the update it brings leave in one write.
        for addressed in seats.answers:
            self._on_answers(addressed.reply_subject, (addressed.answer,))

    def on_public(self, message: Message) -> None:
        for on_update in list(self.by_seat.get(SPECTATORS, {}).values()):
            on_update(message.data)


def _ask(followed: _Subject, number: int) -> None:
    """Have follower ``number`` ask for its latest update, if it still follows."""
    on_catch_up = followed.catch_ups.get(number)
    if on_catch_up is not None:
        on_catch_up()


class FollowedMatches:
    """Subscribes a match's updates while a stream here follows one of its seats."""

    def __init__(self, link: NatsLink, on_answers: OnAnswers | None = None) -> None:
        self._link = link
        self._on_answers: OnAnswers = on_answers or (lambda _subject, _answers: None)
        self._seats: dict[str, _Subject] = {}  # by match id: pf.match.<id>.seats
        self._public: dict[str, _Subject] = {}  # by match id: pf.match.<id>.public
        self._numbers = itertools.count()

    def follow(
        self, match_id: str, seat: int, on_update: OnUpdate, on_catch_up: OnCatchUp | None = None
    ) -> Unfollow:
        """Hand ``seat``'s updates of the match (-1: the spectators') to ``on_update`` until
        the returned function is called; the match's subject is subscribed meanwhile.
        ``on_catch_up`` is called when the link is back after a loss (``catch_up``)."""
        spectators = seat == SPECTATORS
        table = self._public if spectators else self._seats
        followed = table.get(match_id)
        if followed is None:
            followed = table[match_id] = _Subject(self._on_answers)
            if spectators:
                subject, handler = subjects.match_public(match_id), followed.on_public
            else:
                subject, handler = subjects.match_seats(match_id), followed.on_seats
            followed.sid = self._link.subscribe(subject, handler)
        number = next(self._numbers)
        followed.by_seat.setdefault(seat, {})[number] = on_update
        if on_catch_up is not None:
            followed.catch_ups[number] = on_catch_up

        def unfollow() -> None:
            followers = followed.by_seat.get(seat, {})
            followed.catch_ups.pop(number, None)
            if followers.pop(number, None) is None:
                return  # already unfollowed
            if not followers:
                del followed.by_seat[seat]
            if not followed.by_seat and table.get(match_id) is followed:
                del table[match_id]
                self._link.unsubscribe(followed.sid)

        return unfollow

    def catch_up(self) -> None:
        """The link is back after a loss: whatever was published meanwhile never came, so
        every stream asks for its seat's latest update (the link's ``on_reconnected``), one
        after another (``CATCH_UP_EVERY_S``), a stream that stopped meanwhile left out."""
        waiting = [
            (followed, number)
            for followed in (*self._seats.values(), *self._public.values())
            for number in followed.catch_ups
        ]
        if not waiting:
            return
        every_s = min(CATCH_UP_EVERY_S, CATCH_UP_WITHIN_S / len(waiting))
        for index, (followed, number) in enumerate(waiting):
            self._link.loop.call_later(index * every_s, _ask, followed, number)

    async def flush(self) -> None:
        """Return once the server has every subscription made so far (a PING answered)."""
        await self._link.flush()

    def following(self) -> int:
        """Return how many subjects are subscribed (the matches' seats and spectators)."""
        return len(self._seats) + len(self._public)
