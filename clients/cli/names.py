"""A player's name as the terminal shows it: "deleted player", or the name marked "(guest)".

The same rule as the browser page's (clients/web/src/names.ts), in the same words.
"""

from __future__ import annotations

DELETED_PLAYER = "deleted player"
GUEST_MARK = " (guest)"
YOU_MARK = " (you)"
NAME_WIDTH = 32  # a table's name column: a guest's longest name (24 characters) and its mark


def shown_name(
    name: str, *, guest: bool = False, deleted: bool = False, bot: bool = False, yours: bool = False
) -> str:
    """Return ``name`` as shown: "deleted player" for a deleted account (whose name is
    gone), the name and "(guest)" for a guest; a computer player is never marked a guest
    (the bot pool names it "Computer (level)" already). The reader's own seat (``yours``)
    is marked "(you)" instead, the mark that tells them most."""
    if deleted:
        return DELETED_PLAYER
    if yours:
        return f"{name}{YOU_MARK}"
    return f"{name}{GUEST_MARK}" if guest and not bot else name
