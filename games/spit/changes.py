"""A Spit view brought forward by one step: the last view, the step's events, and what they
do not tell (``games.spit.view.Told``: the version, the gate and the Ready presses).

What a client that keeps its view does with an update that carries no view: every field of
the next view follows from these three (checked against :func:`games.spit.view.view` after
every step of long random matches, tests/games/spit/test_properties.py). The events name
only face-up cards, so the same function serves both seats and spectators.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.spit.events import (
    Dealt,
    Ended,
    Event,
    Moved,
    PausedBy,
    Played,
    Reshuffled,
    ResumedBy,
    Revealed,
    Spat,
)
from games.spit.view import CentreView, SideView, StockView, Told, View

_EMPTY_CENTRE = (CentreView(None, 0), CentreView(None, 0))


def changed(view: View, events: Iterable[Event], told: Told) -> View:
    """Return ``view`` after the step whose ``events`` (as its viewer hears them) and
    ``told`` are given."""
    sides = list(view.sides)
    centre = list(view.centre)
    round_no, spits, paused, outcome = view.round_no, view.spits, view.paused, view.outcome
    spat = False
    for event in events:
        match event:
            case Played(seat=seat, stock=stock, pile=pile, card=card):
                sides[seat] = _taken_from(sides[seat], stock)
                centre[pile] = CentreView(card, centre[pile].size + 1)
            case Revealed(seat=seat, stock=stock, card=card):
                hidden = sides[seat].stock[stock].hidden
                sides[seat] = _with_stock(sides[seat], stock, StockView(card, hidden - 1))
            case Moved(seat=seat, src=src, dst=dst, card=card):
                side = _taken_from(sides[seat], src)
                sides[seat] = _with_stock(side, dst, StockView(card, 0))
            case Spat(seat=seat, pile=pile, card=card):
                side = sides[seat]
                sides[seat] = SideView(side.stock, side.spit_count - 1)
                centre[pile] = CentreView(card, centre[pile].size + 1)
                spat = True
            case Reshuffled(spit_counts=counts):
                sides = [
                    SideView(side.stock, count) for side, count in zip(sides, counts, strict=True)
                ]
                centre = list(_EMPTY_CENTRE)
                spat = True  # a spit happens at once, even with no card left to turn
            case Dealt(round_no=dealt_round, seat=seat, tops=tops, hidden=hidden):
                piles = zip(tops, hidden, strict=True)
                sides[seat] = SideView(tuple(StockView(*pile) for pile in piles), event.spit_count)
                centre = list(_EMPTY_CENTRE)
                round_no = dealt_round
            case PausedBy():
                paused = True
            case ResumedBy():
                paused = False
            case Ended(outcome=ended):
                outcome, paused = ended, False
    return View(
        seat=view.seat,
        version=told.version,
        round_no=round_no,
        pausable=view.pausable,
        sides=(sides[0], sides[1]),
        centre=(centre[0], centre[1]),
        gate=told.gate,
        paused=paused,
        must_press=told.must_press,
        spits=spits + 1 if spat else spits,
        outcome=outcome,
    )


def _taken_from(side: SideView, index: int) -> SideView:
    """Return ``side`` with the top of stock pile ``index`` gone: the card beneath stays
    face down until its Revealed event turns it up."""
    return _with_stock(side, index, StockView(None, side.stock[index].hidden))


def _with_stock(side: SideView, index: int, pile: StockView) -> SideView:
    stock = list(side.stock)
    stock[index] = pile
    return SideView(tuple(stock), side.spit_count)
