"""A game's ladder: the order of players, their ranks, and how many a caller may ask for."""

from __future__ import annotations

from collections.abc import Iterable

from services.ratings.errors import BadRequest, Reason
from services.ratings.model import LadderEntry, Standing

DEFAULT_LIMIT = 50
MAX_LIMIT = 500


def limit_of(asked: int) -> int:
    """Return how many lines to give for a request's ``limit`` (0: the default).

    Raises:
        BadRequest: for a negative limit.
    """
    if asked < 0:
        raise BadRequest(Reason.BAD_LIMIT, f"limit {asked} is negative")
    return DEFAULT_LIMIT if asked == 0 else min(asked, MAX_LIMIT)


def order_key(standing: Standing) -> tuple[float, int, str]:
    """Return the sort key of the ladder: higher rating, then more games, then player id.

    The store's SQL sorts the same way (player ids compared as bytes, like Python's str).
    """
    return (-standing.rating.rating, -standing.games, standing.player_id)


def rank(standings: Iterable[Standing], first: int = 1) -> tuple[LadderEntry, ...]:
    """Return the standings in ladder order, ranked from ``first`` with no shared ranks."""
    ordered = sorted(standings, key=order_key)
    return tuple(LadderEntry(rank, standing) for rank, standing in enumerate(ordered, first))


def page_start(rank_of_player: int, total: int, limit: int) -> int:
    """Return the rank the page of ``limit`` lines around ``rank_of_player`` starts at.

    The player sits in the middle of the page (one line nearer its top for an even
    ``limit``); near either end of the ladder the page stays full and the player moves off
    the middle.
    """
    centred = rank_of_player - (limit - 1) // 2
    return max(1, min(centred, total - limit + 1))
