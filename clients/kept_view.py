"""One stream's view, kept from update to update.

Most updates carry no view, only the step's change: its events and what a view shows
beyond them (``told``; see ``MatchUpdate`` in arbitration.proto). A client keeps the last
whole view and brings it forward with each change (the game's ``changed``), so every
update it hands on holds a whole ``view``, as if the server had sent it.
"""

from __future__ import annotations

import logging
from typing import Any

from games.codec import seat_from_proto
from games.errors import Malformed
from games.registry import BY_NUMBER
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2

log = logging.getLogger(__name__)


class KeptView:
    """The view of one seat (or the spectators) of one match, from one stream's updates."""

    def __init__(self) -> None:
        self._view: Any = None  # the game engine's view, None until a whole one came
        self._shown: game_pb2.View | None = None  # the same, as the wire's View

    def complete(self, update: arbitration_pb2.MatchUpdate) -> arbitration_pb2.MatchUpdate:
        """Return ``update`` (changed in place) with its whole view: its own, or the kept
        one brought forward by its change. Left without one while no whole view has come
        (a stream begins with one; the server sends one every few steps)."""
        game = BY_NUMBER.get(update.game)
        if game is None:
            return update
        if update.HasField("view"):
            try:
                self._view, self._shown = game.codec.view_from_proto(update.view), update.view
            except Malformed:
                self._view = self._shown = None
            return update
        if self._view is None or self._shown is None:
            return update
        if update.HasField("told") and update.since == self._view.version:
            try:
                self._bring_forward(update)
            except Malformed as error:  # not a change this client can read: wait for a view
                log.warning("unreadable change", extra={"fields": {"why": str(error)}})
                self._view = self._shown = None
                return update
        elif update.version > self._view.version:  # a change went missing: wait for a view
            self._view = self._shown = None
            return update
        update.view.CopyFrom(self._shown)
        return update

    def _bring_forward(self, update: arbitration_pb2.MatchUpdate) -> None:
        game = BY_NUMBER[update.game]
        seat = seat_from_proto(update.seat)
        events = tuple(game.codec.event_from_proto(event, seat) for event in update.events)
        told = game.codec.told_from_proto(update.told)
        self._view = game.engine.changed(self._view, events, told)
        self._shown = game.codec.view_to_proto(self._view)
