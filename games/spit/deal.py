"""Dealing: the first deal of a match and laying a seat's cards out as stock and spit piles.

Every shuffle draws from a local ``random.Random`` seeded with the match seed and a label
naming the round and the purpose, so any match replays exactly from its seed and its
command log, and no shuffle depends on how many shuffles came before it.
"""

from __future__ import annotations

import random

from games.seats import SEATS
from games.spit.cards import Card, full_deck
from games.spit.model import STOCK_PILES, Options, Phase, Pile, Side, State

HAND = 26  # rules §2.1


def rng_for(seed: int, round_no: int, purpose: str) -> random.Random:
    """Return the generator for one shuffle of one round of the match with ``seed``."""
    return random.Random(f"{seed}/{round_no}/{purpose}")


def lay_out(cards: Pile) -> Side:
    """Return ``cards`` laid out as five stock piles of up to 1, 2, 3, 4, 5 cards and a spit pile.

    Rules §2.2–2.3: piles of 1 to 5 cards, the rest is the spit pile. Rules §5 (fewer than
    15 cards): the piles are filled in order until the cards run out, so 8 cards lie as
    1, 2, 3, 2, 0 and the spit pile is empty. The top card of each pile is face up by the
    state's standing rule (see ``model``).
    """
    piles: list[Pile] = []
    start = 0
    for size in range(1, STOCK_PILES + 1):
        piles.append(cards[start : start + size])
        start += size
    stock = (piles[0], piles[1], piles[2], piles[3], piles[4])
    return Side(stock=stock, spit=cards[start:])


def shuffled(cards: list[Card], rng: random.Random) -> Pile:
    """Return ``cards`` in the order ``rng`` shuffles them into."""
    order = list(cards)
    rng.shuffle(order)
    return tuple(order)


def deal_round(seed: int, round_no: int, hands: tuple[list[Card], list[Card]]) -> tuple[Side, Side]:
    """Return each seat's hand shuffled and laid out for round ``round_no``."""
    laid = [
        lay_out(shuffled(hands[seat], rng_for(seed, round_no, f"deal/{seat}"))) for seat in SEATS
    ]
    return laid[0], laid[1]


def new_match(options: Options, seed: int) -> State:
    """Return a new match: 26 cards each, laid out, waiting at Gate.START for both Ready."""
    deck = shuffled(list(full_deck()), rng_for(seed, 1, "deck"))
    hands = (list(deck[:HAND]), list(deck[HAND:]))
    return State(
        seed=seed,
        version=0,
        options=options,
        round_no=1,
        phase=Phase.START,
        sides=deal_round(seed, 1, hands),
        centre=((), ()),
        pressed=frozenset(),
        paused=False,
        spits=0,
        reshuffles=0,
        outcome=None,
    )
