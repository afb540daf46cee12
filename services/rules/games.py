"""The registry: every game the rules service serves, as an engine and its codec.

The servicer looks a request's game up here and calls the same functions whatever the
game, so it never names one. Adding a game is an entry here, an engine under ``engine/``
and a codec under ``codec/``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from photofinish.game.v1 import game_pb2
from services.rules import errors
from services.rules.claims import Claim, no_claim, spit_claim
from services.rules.codec import bid as bid_codec
from services.rules.codec import spit as spit_codec
from services.rules.engine import bid, spit
from services.rules.engine.contract import Engine
from services.rules.engine.seats import Seat


class Codec(Protocol):
    """One game's proto conversions; ``Any`` stands for that game's engine types."""

    def options_from_proto(self, options: game_pb2.Options) -> Any: ...

    def command_from_proto(self, command: game_pb2.Command) -> Any: ...

    def command_to_proto(self, command: Any) -> game_pb2.Command: ...

    def view_to_proto(self, view: Any) -> game_pb2.View: ...

    def views_to_proto(self, views: Sequence[Any]) -> list[game_pb2.View]:
        """A step's views, one per recipient: what they share may be built once."""
        ...

    def event_to_proto(self, event: Any) -> game_pb2.Event: ...


@dataclass(frozen=True, slots=True)
class Entry:
    """A served game: its engine, its codec, whether it is clocked, what it races for."""

    name: str
    engine: Engine
    codec: Codec
    clocked: bool  # a match clock (bank + grace per decision) runs in the arbitration
    claim: Callable[[Any, Seat, Any], Claim | None]

    def decode_state(self, data: bytes) -> Any:
        """Return the state ``data`` encodes.

        Raises:
            Rejection: INVALID_ARGUMENT ``bad_state`` when ``data`` is not such a state.
        """
        try:
            return self.engine.decode_state(data)
        except msgspec.MsgspecError as error:
            raise errors.bad_state(self.name, str(error)) from None


GAMES: Mapping[int, Entry] = {
    game_pb2.GAME_BID: Entry("bid", bid, bid_codec, clocked=True, claim=no_claim),
    game_pb2.GAME_SPIT: Entry("spit", spit, spit_codec, clocked=False, claim=spit_claim),
}


def entry_for(game: int) -> Entry:
    """Return the entry of ``game``.

    Raises:
        Rejection: INVALID_ARGUMENT ``unknown_game`` for GAME_UNSPECIFIED or an unknown number.
    """
    entry = GAMES.get(game)
    if entry is None:
        raise errors.unknown_game(game)
    return entry
