"""One stream's view, kept from update to update.

Most updates carry no view, only the step's change: its events and what a view shows
beyond them (``told``; see ``MatchUpdate`` in arbitration.proto). A client keeps the last
whole view and brings it forward with each change (the game's ``changed``): ``keep``
gives the game engine's view (what a bot plans from), ``complete`` puts it in the update as
the wire's ``View``, as if the server had sent it (what a page or the CLI shows). When a
change goes missing on the way (a gateway that lost its NATS link for a moment), the kept
view cannot be brought forward: ``ChangeMissed`` says to open the stream again, whose first
update holds the whole view.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from games.codec import seat_from_proto
from games.errors import Malformed
from games.registry import BY_NUMBER, Game
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2

log = logging.getLogger(__name__)


class ChangeMissed(Exception):
    """An update's change does not follow the kept view: open the stream again."""


class KeptView:
    """The view of one seat (or the spectators) of one match, from one stream's updates."""

    def __init__(self, game: Game | None = None) -> None:
        self._game = game  # the match's, when the client knows it; else each update's own
        self._view: Any = None  # the game engine's view, None until a whole one came
        # The wire's View of ``_view`` once ``complete`` needed it (the same object).
        self._shown: tuple[Any, game_pb2.View] | None = None

    def keep(self, update: arbitration_pb2.MatchUpdate) -> Any:
        """Return the engine's view after ``update``: its own, or the kept one brought
        forward by its change. None while no whole view has come (a stream begins with
        one).

        Raises:
            ChangeMissed: the update's change does not follow the kept view (which is
                dropped: a new stream's first update starts again).
            Malformed: the update's view or change is not one this client can read (the
                kept view is dropped: the next whole view starts again).
        """
        game = self._game or BY_NUMBER.get(update.game)
        if game is None:
            return None
        try:
            if update.HasField("view"):
                self._view = game.codec.view_from_proto(update.view)
            elif self._view is None:
                pass
            elif update.HasField("told") and update.since == self._view.version:
                seat = seat_from_proto(update.seat)
                events = tuple(game.codec.event_from_proto(event, seat) for event in update.events)
                told = game.codec.told_from_proto(update.told)
                self._view = game.engine.changed(self._view, events, told)
            elif update.version > self._view.version:
                missed = f"version {update.since} came after {self._view.version}"
                self._view = None
                raise ChangeMissed(f"a change went missing: {missed}")
        except Malformed:
            self._view = None
            raise
        return self._view

    def complete(self, update: arbitration_pb2.MatchUpdate) -> arbitration_pb2.MatchUpdate:
        """Return ``update`` (changed in place) with its whole view, the kept one brought
        forward by its change when it came without; left without one while ``keep`` has
        none.

        Raises:
            ChangeMissed: as ``keep``.
        """
        if update.HasField("view"):
            with contextlib.suppress(Malformed):  # passed on as it came: its reader sees why
                self.keep(update)
            return update
        try:
            view = self.keep(update)
        except Malformed as error:  # not a change this client can read: wait for a view
            log.warning("unreadable change", extra={"fields": {"why": str(error)}})
            return update
        if view is None:
            return update
        if self._shown is None or self._shown[0] is not view:
            game = self._game or BY_NUMBER[update.game]
            self._shown = (view, game.codec.view_to_proto(view))
        update.view.CopyFrom(self._shown[1])
        return update
