"""The rules service's way to a game: the registry's entry a request names, its state decoded.

The servicer calls the same functions whatever the game (see :mod:`games.registry`), so it
never names one.
"""

from __future__ import annotations

from typing import Any

import msgspec

from games.registry import Game, by_number
from services.rules import errors


def entry_for(number: int) -> Game:
    """Return the game with wire number ``number``.

    Raises:
        Rejection: INVALID_ARGUMENT ``unknown_game`` for GAME_UNSPECIFIED or an unknown number.
    """
    game = by_number(number)
    if game is None:
        raise errors.unknown_game(number)
    return game


def decode_state(game: Game, data: bytes) -> Any:
    """Return the state of ``game`` that ``data`` encodes.

    Raises:
        Rejection: INVALID_ARGUMENT ``bad_state`` when ``data`` is not such a state.
    """
    try:
        return game.engine.decode_state(data)
    except msgspec.MsgspecError as error:
        raise errors.bad_state(game.name, str(error)) from None
