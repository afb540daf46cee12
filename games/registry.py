"""Every game the arena offers, in one table: what each part of the system needs of a game.

The rules service, the replay tool, matchmaking, tournaments, ratings, the bots and the
CLI look a game up here, by its wire number or its name, and never branch on
one. Adding a game is a package under ``games/`` (engine, codec, bots) and a line below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games import bid, spit
from games.bid import bots as bid_bots
from games.bid import codec as bid_codec
from games.contract import Bots, ClaimOf, Codec, Engine, no_claim
from games.errors import Reason
from games.spit import bots as spit_bots
from games.spit import codec as spit_codec
from games.spit.claims import spit_claim, spit_lost_race
from photofinish.game.v1 import game_pb2


@dataclass(frozen=True, slots=True)
class Game:
    """One game: its names, its pure parts and the facts the services go by."""

    name: str  # as written in commands, logs, metrics and ladders: "spit"
    title: str  # as shown to players: "Spit"
    number: int  # its ``photofinish.game.v1.Game`` value: never renumber
    engine: Engine
    codec: Codec
    bots: Bots
    options: Any  # the options of an ordinary match
    clocked: bool  # a match clock (bank + grace per decision) runs in the arbitration
    claim: ClaimOf  # what a command races for, if anything
    # Whether a claimed command refused for a reason means "someone was first".
    lost_race: Callable[[Reason, Any], bool]
    pausable_vs_computer: bool  # a match against the computer may be paused

    def __str__(self) -> str:
        return self.name


SPIT = Game(
    "spit",
    "Spit",
    game_pb2.GAME_SPIT,
    spit,
    spit_codec,
    spit_bots,
    spit.Options(),
    clocked=False,
    claim=spit_claim,
    lost_race=spit_lost_race,
    pausable_vs_computer=True,
)
BID = Game(
    "bid",
    "Spectacular Bid",
    game_pb2.GAME_BID,
    bid,
    bid_codec,
    bid_bots,
    bid.Options(),
    clocked=True,
    claim=no_claim,
    lost_race=lambda _reason, _command: False,
    pausable_vs_computer=False,
)

GAMES: tuple[Game, ...] = (SPIT, BID)  # in the order menus offer them
BY_NUMBER: Mapping[int, Game] = {game.number: game for game in GAMES}
BY_NAME: Mapping[str, Game] = {game.name: game for game in GAMES}


def by_number(number: int) -> Game | None:
    """Return the game with wire number ``number``, None for an unknown one (or 0)."""
    return BY_NUMBER.get(number)


def by_name(name: str) -> Game | None:
    """Return the game called ``name`` ("spit"), None for an unknown one."""
    return BY_NAME.get(name)
