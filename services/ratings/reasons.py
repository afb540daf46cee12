"""The one stored sentence that names players (a pair-cap reason), and its rewording when
one of them is deleted.

Answers carry a deleted player's name as "" with ``deleted`` set, and clients word it;
a sentence stored whole has to say it itself.
"""

from __future__ import annotations

DELETED_NAME = "deleted player"
# A rated game with a marked account (docs/fair-play.md) counts for neither side.
BARRED = "one of the players is barred from rated play, so the game did not count"

# (player id, name as stored: "" once the player is deleted), seat 0's then seat 1's.
Seat = tuple[str, str]


def pair_capped(first_name: str, second_name: str, per_pair: int) -> str:
    """Return why a rated game between seat 0 and seat 1, so named, did not count."""
    return (
        f"{_pair(first_name, second_name)} already have {per_pair} rated games counted"
        " in the last 24 hours, the most that count"
    )


def shown(name: str, deleted: bool) -> str:
    """Return how a pair-cap reason names a player."""
    return DELETED_NAME if deleted or not name else name


def unnamed(reason: str, seats: tuple[Seat, Seat], player_id: str) -> str:
    """Return pair-cap ``reason`` naming ``player_id`` as a deleted player.

    A reason that does not begin with the seats' names as ``pair_capped`` wrote them
    (one reworded already, or another sentence) comes back as it is.
    """
    (first_id, first), (second_id, second) = seats
    named = _pair(shown(first, False), shown(second, False))
    if not reason.startswith(f"{named} "):
        return reason
    unnamed = _pair(shown(first, first_id == player_id), shown(second, second_id == player_id))
    return unnamed + reason[len(named) :]


def _pair(first_name: str, second_name: str) -> str:
    return f"{first_name} and {second_name}"
