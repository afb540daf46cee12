"""Claims: the resource a command races for, and what it puts there.

Spit (rules §6): two plays onto one centre pile race; the first to arrive lands and the
second is refused. A play claims ``pile:<n>`` with the card it plays ("8♠"): the
arbitration records who landed each claim, and when a later play is refused it reads the
claim from the refusal's metadata to tell both players who won the race and by how much.
Bid has no races. A claim is read from the state *before* the command, so the same
function serves the accepted command and the refused one.
"""

from __future__ import annotations

from typing import Any

from services.rules.engine.seats import Seat
from services.rules.engine.spit import Play, State

Claim = tuple[str, str]


def spit_claim(state: State, seat: Seat, command: Any) -> Claim | None:
    """Return ("pile:<n>", the card's text) for a play whose stock pile has a card."""
    if not isinstance(command, Play):
        return None
    stock = state.sides[seat].stock[command.stock]
    if not stock:
        return None
    return f"pile:{command.pile}", str(stock[-1])


def no_claim(state: Any, seat: Seat, command: Any) -> Claim | None:
    """Return None: nothing in this game is raced for."""
    return None
