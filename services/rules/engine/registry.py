"""Every game the arena offers, by name: its engine, its computer opponents, its defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from services.rules.engine import bid, spit
from services.rules.engine.bid import bots as bid_bots
from services.rules.engine.contract import Bots, Engine
from services.rules.engine.spit import bots as spit_bots


@dataclass(frozen=True, slots=True)
class Game:
    """One game: the engine's functions, its bots and the options of an ordinary match."""

    name: str
    engine: Engine
    bots: Bots
    options: Any


GAMES: Mapping[str, Game] = {
    "spit": Game("spit", spit, spit_bots, spit.Options()),
    "bid": Game("bid", bid, bid_bots, bid.Options()),
}
