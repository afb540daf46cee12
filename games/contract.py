"""The surface every game offers, so services can serve any game without naming it.

A game is a module (boardgame.io's idea, Python's types) with a codec and bots beside it;
everything that serves games finds them in :mod:`games.registry` and calls these
functions. States, commands, views and events are opaque values here; each engine gives
them precise types of its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol

from games.bot import Level, Plan
from games.decision import Decision, Outcome, Step, Termination
from games.seats import Seat
from photofinish.game.v1 import game_pb2


class Engine(Protocol):
    """The pure functions of one game; ``Any`` stands for that game's own types."""

    def new_match(self, options: Any, seed: int) -> Any: ...

    def legal_commands(self, state: Any, seat: Seat) -> Iterator[Any]: ...

    def apply(self, state: Any, seat: Seat, command: Any) -> Step[Any, Any]: ...

    def decision(self, state: Any) -> Decision: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def forfeit(self, state: Any, loser: Seat, termination: Termination) -> Step[Any, Any]: ...

    def view(self, state: Any, seat: Seat | None) -> Any: ...

    def views(self, state: Any, seats: Sequence[Seat | None]) -> list[Any]:
        """``view`` for each of ``seats``, what they share built once."""
        ...

    def events_for(self, events: tuple[Any, ...], seat: Seat | None) -> tuple[Any, ...]: ...

    def told(self, state: Any, seat: Seat | None) -> Any:
        """What ``view(state, seat)`` shows beyond the events of the step that led to
        ``state``."""
        ...

    def tolds(self, state: Any, seats: Sequence[Seat | None]) -> list[Any]:
        """``told`` for each of ``seats``, what they share built once."""
        ...

    def changed(self, view: Any, events: tuple[Any, ...], told: Any) -> Any:
        """``view`` brought forward by one step, from the step's events as its viewer hears
        them (``events_for``) and ``told``: the step's state's ``view``."""
        ...

    def parse_command(self, text: str) -> Any: ...

    def encode_state(self, state: Any) -> bytes: ...

    def decode_state(self, data: bytes) -> Any: ...


class Bots(Protocol):
    """A game's computer opponents: they see a seat's view, never the state."""

    def plan(self, view: Any, seat: Seat, level: Level, rng: random.Random) -> Plan[Any] | None: ...


class Codec(Protocol):
    """One game's proto conversions; ``Any`` stands for that game's engine types.

    Decoding a command raises the engine's ``Malformed`` for anything the engine could not
    name. ``view_from_proto`` is the exact inverse of ``view_to_proto`` (the bots read
    views with it).
    """

    def options_from_proto(self, options: game_pb2.Options) -> Any: ...

    def command_from_proto(self, command: game_pb2.Command) -> Any: ...

    def command_to_proto(self, command: Any) -> game_pb2.Command: ...

    def view_to_proto(self, view: Any) -> game_pb2.View: ...

    def views_to_bytes(self, views: Sequence[Any]) -> list[bytes]:
        """A step's views, one encoded ``View`` per recipient: what they share is encoded
        once (each decodes to exactly its ``view_to_proto``)."""
        ...

    def view_from_proto(self, view: game_pb2.View) -> Any: ...

    def event_to_proto(self, event: Any) -> game_pb2.Event: ...

    def event_from_proto(self, event: game_pb2.Event, seat: Seat | None) -> Any:
        """The inverse of ``event_to_proto`` for the copy ``seat`` heard (``events_for``)."""
        ...

    def told_to_proto(self, told: Any) -> game_pb2.View:
        """``told`` (the engine's ``told``) as a View holding only what it tells."""
        ...

    def told_to_bytes(self, told: Any) -> bytes:
        """``told_to_proto(told)`` encoded, as the rules send it on every step."""
        ...

    def told_from_proto(self, told: game_pb2.View) -> Any:
        """The inverse of ``told_to_proto``."""
        ...


class Claim(NamedTuple):
    """A resource two players may race for, and what a command puts on it.

    ``key`` names the resource ("pile:0"), ``slot`` numbers it among the game's raced-for
    resources (Spit: the centre pile), ``label`` is what lands there ("8♠").
    """

    key: str
    slot: int
    label: str


ClaimOf = Callable[[Any, Seat, Any], Claim | None]


def no_claim(state: Any, seat: Seat, command: Any) -> Claim | None:
    """Return None: nothing in this game is raced for."""
    return None
