"""A player's name as the terminal shows it: "deleted player", or the name marked "(guest)".

The same rule as the browser page's (clients/web/src/names.ts), in the same words: the
catalogs' ``names.*``.
"""

from __future__ import annotations

import re

from clients.cli.words import t

NAME_WIDTH = 32  # a table's name column, in terminal columns: a guest's longest name and its mark

# The bot pool's names (clients/bots/pool.py, bot_name): worded in the language spoken.
_COMPUTER = re.compile(r"^Computer \((easy|medium|hard)\)$")


def shown_name(
    name: str, *, guest: bool = False, deleted: bool = False, bot: bool = False, yours: bool = False
) -> str:
    """Return ``name`` as shown: "deleted player" for a deleted account (whose name is
    gone), the name and "(guest)" for a guest; a computer player is never marked a guest
    and is named "Computer (level)" in the language spoken. The reader's own seat
    (``yours``) is marked "(you)" instead, the mark that tells them most."""
    if deleted:
        return t("names.deleted")
    level = None if guest and not bot else _COMPUTER.match(name)
    if level:
        name = t("names.computer", level=t(f"names.level.{level.group(1)}"))
    if yours:
        return t("names.you", name=name)
    return t("names.guest", name=name) if guest and not bot else name


def seat_name(seat: int, *, yours: bool = False) -> str:
    """A seat that has no player's name: "seat N"."""
    return shown_name(t("names.seat_index", seat=seat), yours=yours)
