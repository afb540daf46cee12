"""The surface every game engine offers, so services can serve any game without naming it.

A game is a module (boardgame.io's idea, Python's types): the rules service looks it up
in :data:`services.rules.games.GAMES`, the engine benchmark in
:data:`services.rules.engine.registry.GAMES`, and both call these functions. States,
commands, views and events are opaque values here; each engine gives them precise types
of its own.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Protocol

from services.rules.engine.bot import Level, Plan
from services.rules.engine.decision import Decision, Outcome, Step, Termination
from services.rules.engine.seats import Seat


class Engine(Protocol):
    """The pure functions of one game; ``Any`` stands for that game's own types."""

    def new_match(self, options: Any, seed: int) -> Any: ...

    def legal_commands(self, state: Any, seat: Seat) -> Iterator[Any]: ...

    def apply(self, state: Any, seat: Seat, command: Any) -> Step[Any, Any]: ...

    def decision(self, state: Any) -> Decision: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def forfeit(self, state: Any, loser: Seat, termination: Termination) -> Step[Any, Any]: ...

    def view(self, state: Any, seat: Seat | None) -> Any: ...

    def events_for(self, events: tuple[Any, ...], seat: Seat | None) -> tuple[Any, ...]: ...

    def parse_command(self, text: str) -> Any: ...

    def encode_state(self, state: Any) -> bytes: ...

    def decode_state(self, data: bytes) -> Any: ...


class Bots(Protocol):
    """A game's computer opponents: they see a seat's view, never the state."""

    def plan(self, view: Any, seat: Seat, level: Level, rng: random.Random) -> Plan[Any] | None: ...
