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

# A play refused for these reasons met a pile whose top another play had changed.
LOST_RACE = frozenset({Reason.PILE_TOP_CHANGED, Reason.NOT_ADJACENT})


def spit_claim(state: State, seat: Seat, command: Any) -> Claim | None:
    """Return the pile a play whose stock pile has a card races for, with that card."""
    if not isinstance(command, Play):
        return None
    stock = state.sides[seat].stock[command.stock]
    if not stock:
        return None
    return Claim(f"pile:{command.pile}", command.pile, str(stock[-1]))
