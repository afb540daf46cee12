"""The games the pool plays: each seat's view decoded for the engine's bots, and back.

The engines' ``plan`` functions take the engine's own view, so a wire view is decoded with
the rules codec's ``view_from_proto`` (its exact inverse of what the rules service sends),
and the planned command is encoded with the same codec's ``command_to_proto``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from photofinish.game.v1 import game_pb2
from services.rules.codec import bid as bid_codec
from services.rules.codec import spit as spit_codec
from services.rules.engine.bid import bots as bid_bots
from services.rules.engine.bot import Level, Plan
from services.rules.engine.seats import Seat
from services.rules.engine.spit import bots as spit_bots

V = TypeVar("V")
C = TypeVar("C")


@dataclass(frozen=True, slots=True)
class GameBots(Generic[V, C]):
    """One game as a bot plays it: decode a view, plan from it, encode the command."""

    name: str
    decode: Callable[[game_pb2.View], V]
    plan: Callable[[V, Seat, Level, random.Random], Plan[C] | None]
    encode: Callable[[C], game_pb2.Command]


GAMES: Mapping[int, GameBots[Any, Any]] = {
    game_pb2.GAME_SPIT: GameBots(
        "spit", spit_codec.view_from_proto, spit_bots.plan, spit_codec.command_to_proto
    ),
    game_pb2.GAME_BID: GameBots(
        "bid", bid_codec.view_from_proto, bid_bots.plan, bid_codec.command_to_proto
    ),
}

LEVELS: Mapping[int, Level] = {
    game_pb2.LEVEL_EASY: Level.EASY,
    game_pb2.LEVEL_MEDIUM: Level.MEDIUM,
    game_pb2.LEVEL_HARD: Level.HARD,
}


def bot_name(level: Level) -> str:
    """Return the display name of a computer player: ``Computer (hard)``."""
    return f"Computer ({level.value})"
