"""Spit's claims: the centre pile a play races for, and the card it puts there.

Rules §6: two plays onto one centre pile race; the first to arrive lands and the second is
refused. A play claims ``pile:<n>`` with the card it plays ("8♠"). The claim is read from
the state *before* the command, so the same function serves the accepted play and the
refused one.
"""

from __future__ import annotations

from typing import Any

from games.contract import Claim
from games.errors import Reason
from games.seats import Seat
from games.spit.commands import Play
from games.spit.model import State

# A play refused for these reasons may have met a pile whose top another play changed.
LOST_RACE = frozenset({Reason.PILE_TOP_CHANGED, Reason.NOT_ADJACENT})


def spit_lost_race(reason: Reason, command: Any) -> bool:
    """Return whether a play refused for ``reason`` lost a race for its pile.

    A play that names the top its player saw (``onto``, as the page, the CLI and the bots
    send) lost a race exactly when that top had changed (PILE_TOP_CHANGED); refused as
    NOT_ADJACENT it aimed at the top as it still is: a misclick, not a race. A play
    without ``onto`` cannot tell, so NOT_ADJACENT counts as a race for it.
    """
    if reason is Reason.PILE_TOP_CHANGED:
        return True
    return reason is Reason.NOT_ADJACENT and isinstance(command, Play) and command.onto is None


def spit_claim(state: State, seat: Seat, command: Any) -> Claim | None:
    """Return the pile a play whose stock pile has a card races for, with that card."""
    if not isinstance(command, Play):
        return None
    stock = state.sides[seat].stock[command.stock]
    if not stock:
        return None
    return Claim(f"pile:{command.pile}", command.pile, str(stock[-1]))
