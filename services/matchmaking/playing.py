"""Each player's matches against the computer and on one device that have not ended, and
the cap on starting more.

What is live comes from the ``pf_live`` bucket (services/common/live.py): arbitration lists
a match when it opens and unlists it when its result goes out. Matchmaking keeps a copy by
watching the bucket (:func:`follow`), read to its end before the service serves, so the
count is as right after a restart as before it. Two gaps the bucket leaves are covered
here: a start still being opened holds its place, so a burst of starts cannot all pass the
count; and a match opened but not yet listed (arbitration lists it after answering, in
milliseconds) counts from its opening, for ``UNLISTED_S`` at most, so a listing that was
lost does not hold a place for good. A start holds its place under the id its match will
have, drawn before it opens: the bucket may list the match before the opening's answer
comes back, and it is the same place, counted once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator

from google.protobuf.message import DecodeError
from nats.js.kv import KV_DEL, KV_PURGE, KeyValue

from photofinish.events.v1 import events_pb2
from services.common.identity import PlayerId
from services.matchmaking.errors import Reason, Refused

# A player's live matches against the computer and on one device together: a game in each
# of a few tabs, not a room of them (one token started 40 in half a second).
MAX_LIVE_PER_PLAYER = 3
# A match opened here counts this long before the bucket lists it; listing takes
# milliseconds, so only a listing that was lost is ever waited out.
UNLISTED_S = 30.0

_COUNTED = (events_pb2.MODE_COMPUTER, events_pb2.MODE_HOTSEAT)


class Playing:
    """The live matches of the counted kinds, by player, and the starts under way."""

    def __init__(
        self, now_s: Callable[[], float] = time.monotonic, most: int = MAX_LIVE_PER_PLAYER
    ) -> None:
        self._now_s = now_s
        self._most = most
        self._player_of: dict[str, PlayerId] = {}  # listed match -> its person
        self._listed: dict[PlayerId, set[str]] = {}
        # Opened here, not yet listed: match -> (its person, opened at). Few, and for
        # milliseconds each: listing follows the opening at once.
        self._unlisted: dict[str, tuple[PlayerId, float]] = {}
        self._starting: dict[str, PlayerId] = {}  # match being opened -> its person

    def listed(self, match_id: str, record: events_pb2.LiveMatch | None) -> None:
        """Take in one change of the bucket: ``match_id`` listed as ``record``, or unlisted
        (None: it ended)."""
        self._unlisted.pop(match_id, None)
        person = _person(record) if record is not None else None
        if person is not None:
            self._player_of[match_id] = person
            self._listed.setdefault(person, set()).add(match_id)
            return
        gone = self._player_of.pop(match_id, None)
        if gone is not None:
            self._listed[gone].discard(match_id)
            if not self._listed[gone]:
                del self._listed[gone]

    def held(self, player_id: PlayerId) -> frozenset[str]:
        """Return the player's counted matches that have not ended, as far as known, and
        those being opened."""
        fresh_after = self._now_s() - UNLISTED_S
        for match_id in [m for m, (_, at) in self._unlisted.items() if at < fresh_after]:
            del self._unlisted[match_id]
        unlisted = {m for m, (who, _) in self._unlisted.items() if who == player_id}
        opening = {m for m, who in self._starting.items() if who == player_id}
        return frozenset(self._listed.get(player_id, set()) | unlisted | opening)

    @contextlib.contextmanager
    def starting(self, player_id: PlayerId, match_id: str) -> Iterator[None]:
        """Hold a place for the match ``match_id`` that ``player_id`` starts while the
        context is open; once it exits without an error the match has opened, and it keeps
        its place until it ends.

        Raises:
            Refused: TOO_MANY_MATCHES when the player holds ``most`` places already.
        """
        held = len(self.held(player_id))
        if held >= self._most:
            raise Refused(
                Reason.TOO_MANY_MATCHES,
                f"you have {held} matches against the computer or on one device in play,"
                " the most at once: finish or resign one to start another",
            )
        self._starting[match_id] = player_id
        opened = False
        try:
            yield
            opened = True
        finally:
            del self._starting[match_id]
            if opened and match_id not in self._player_of:  # not listed yet
                self._unlisted[match_id] = (player_id, self._now_s())


def _person(record: events_pb2.LiveMatch) -> PlayerId | None:
    """Return the person a counted match is played by (None: a kind not counted)."""
    if record.mode not in _COUNTED:
        return None
    people = [p.player_id for p in record.players if not p.bot and p.player_id]
    return PlayerId(people[0]) if people else None


async def follow(live: KeyValue, playing: Playing, synced: asyncio.Event) -> None:
    """Keep ``playing`` up to date with the bucket until cancelled; set ``synced`` once
    what the bucket held at the start is all in."""
    watcher = await live.watchall()
    async for entry in watcher:
        if entry is None:  # the initial values are all in
            synced.set()
            continue
        record = None
        if entry.operation not in (KV_DEL, KV_PURGE) and entry.value:
            with contextlib.suppress(DecodeError):  # not a record this version reads
                record = events_pb2.LiveMatch.FromString(entry.value)
        playing.listed(entry.key, record)
        if entry.delta == 0:
            synced.set()
