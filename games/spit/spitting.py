"""The spit: new cards onto the centre piles, and the reshuffle when no spit pile is left.

Project decisions (rules §3.1, §3.4, §5 and "Decisions left open"):

- Each seat with a spit pile turns its top card onto **its own** centre pile: seat 0 onto
  pile 0, seat 1 onto pile 1. A seat without a spit pile lets the other spit alone, and
  the lone spitter still uses its own pile every time (Parlett: "the same one every
  time"). A centre pile nobody spits on may stay empty; nothing can be played onto it.
- When nobody can go on and **neither** seat has a spit pile (no authoritative Spit rule;
  Speed does this), both centre piles are gathered, shuffled with the match's seeded
  generator, and split into two new face-down spit piles as evenly as possible. An odd
  card goes to the seat with **fewer cards in hand** — with both spit piles empty, that
  is fewer cards in its stock piles, the seat nearer to going out — and if both hold as
  many, a seeded coin decides. Then the spit happens at once.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.seats import SEATS
from games.spit.deal import rng_for, shuffled
from games.spit.events import Event, Reshuffled, Spat
from games.spit.model import Side, State


def spit(state: State) -> tuple[State, list[Event]]:
    """Return ``state`` after one spit (reshuffling first if no spit pile is left).

    The phase is left for the caller to settle; ``spits`` counts this spit.
    """
    events: list[Event] = []
    if not state.sides[0].spit and not state.sides[1].spit:
        state = _reshuffle(state)
        counts = (len(state.sides[0].spit), len(state.sides[1].spit))
        events.append(Reshuffled(spit_counts=counts))
    sides = list(state.sides)
    centre = list(state.centre)
    for seat in SEATS:
        side = sides[seat]
        if side.spit:
            card = side.spit[-1]
            sides[seat] = Side(stock=side.stock, spit=side.spit[:-1])
            centre[seat] = (*centre[seat], card)
            events.append(Spat(seat=seat, pile=seat, card=card))
    new_sides = (sides[0], sides[1])
    new_centre = (centre[0], centre[1])
    return replace(state, sides=new_sides, centre=new_centre, spits=state.spits + 1), events


def _reshuffle(state: State) -> State:
    """Return ``state`` with both centre piles gathered into two new spit piles."""
    rng = rng_for(state.seed, state.round_no, f"reshuffle/{state.reshuffles}")
    cards = shuffled([*state.centre[0], *state.centre[1]], rng)
    stock0, stock1 = (side.stock_count() for side in state.sides)
    odd_to_seat0 = stock0 < stock1 or (stock0 == stock1 and rng.random() < 0.5)
    share0 = (len(cards) + 1) // 2 if odd_to_seat0 else len(cards) // 2
    sides = (
        Side(stock=state.sides[0].stock, spit=cards[:share0]),
        Side(stock=state.sides[1].stock, spit=cards[share0:]),
    )
    return replace(state, sides=sides, centre=((), ()), reshuffles=state.reshuffles + 1)
