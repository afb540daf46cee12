"""The games and bot levels matchmaking offers, as closed sets mirroring game.proto."""

from __future__ import annotations

import enum


class Game(enum.Enum):
    """A game a match can be of. Values mirror ``photofinish.game.v1.Game``: never renumber."""

    SPIT = 1
    BID = 2

    def __str__(self) -> str:
        return self.name.lower()


class Level(enum.Enum):
    """How strong a computer opponent plays. Values mirror ``photofinish.game.v1.Level``."""

    EASY = 1
    MEDIUM = 2
    HARD = 3

    def __str__(self) -> str:
        return self.name.lower()
