"""What every computer opponent shares: a level and a planned, timed command."""

from __future__ import annotations

from typing import Generic, TypeVar

import msgspec

from games.identity_enum import IdentityEnum

C = TypeVar("C")


class Level(IdentityEnum):
    """A computer opponent's strength. Values are stored and mirrored in proto."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Plan(msgspec.Struct, Generic[C], frozen=True):
    """A bot's next command and how long it 'thinks' before sending it."""

    command: C
    think_ms: int
