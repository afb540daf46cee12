"""Test support: crafted Spit positions written the way a player would describe them.

Piles are written bottom card first, cards separated by spaces: ``"2 9"`` is a pile whose
top (face up) is the 9. A card is a rank (``"8"``: the builder picks a suit not yet used)
or a rank and suit (``"8h"``, ``"8♥"``). Crafted positions need not hold all 52 cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.seats import Seat
from games.spit import Card, Options, Phase, Side, State, parse_card, parse_rank
from games.spit.cards import Suit, full_deck
from games.spit.model import Pile
from games.spit.moves import can_go_on

SOUTH = Seat(0)
NORTH = Seat(1)


class _Cards:
    """Hands out distinct cards for the texts of one position."""

    def __init__(self) -> None:
        self.used: set[Card] = set()

    def card(self, text: str) -> Card:
        if text[-1].isdigit() or text.upper() in ("A", "J", "Q", "K", "T"):
            rank = parse_rank(text)
            card = next(Card(rank, suit) for suit in Suit if Card(rank, suit) not in self.used)
        else:
            card = parse_card(text)
        if card in self.used:
            raise ValueError(f"{card} appears twice in the position")
        self.used.add(card)
        return card

    def pile(self, text: str) -> Pile:
        return tuple(self.card(word) for word in text.split())


def position(
    stock0: Sequence[str] = (),
    stock1: Sequence[str] = (),
    spit0: str = "",
    spit1: str = "",
    centre0: str = "",
    centre1: str = "",
    *,
    phase: Phase = Phase.PLAY,
    pausable: bool = False,
    spits: int = 1,
    seed: int = 7,
) -> State:
    """Return a state with exactly these piles (stock piles padded to five with spaces)."""
    cards = _Cards()
    sides = tuple(
        Side(stock=_stock(cards, stock), spit=cards.pile(spit))
        for stock, spit in ((stock0, spit0), (stock1, spit1))
    )
    return State(
        seed=seed,
        version=0,
        options=Options(pausable=pausable),
        round_no=1,
        phase=phase,
        sides=(sides[0], sides[1]),
        centre=(cards.pile(centre0), cards.pile(centre1)),
        pressed=frozenset(),
        paused=False,
        spits=spits,
        reshuffles=0,
        outcome=None,
    )


def _stock(cards: _Cards, piles: Sequence[str]) -> tuple[Pile, Pile, Pile, Pile, Pile]:
    if len(piles) > 5:
        raise ValueError("five stock piles at most")
    laid = [cards.pile(text) for text in piles] + [()] * (5 - len(piles))
    return (laid[0], laid[1], laid[2], laid[3], laid[4])


def tops(state: State, seat: Seat) -> list[str]:
    """Return a seat's stock tops as text, ``"-"`` for an empty space."""
    return [str(pile[-1].rank) if pile else "-" for pile in state.sides[seat].stock]


def centre_tops(state: State) -> list[str]:
    """Return both centre tops as rank text, ``"-"`` for an empty pile."""
    return [str(pile[-1].rank) if pile else "-" for pile in state.centre]


def random_position(seed: int, *, pausable: bool = False) -> State:
    """Return a random mid-round position holding all 52 cards, play or blocked.

    Stock piles of 0–5 cards (at least one card per seat, as during a round), spit piles
    often empty or short so that lone spits and reshuffles come up, the rest in the centre.
    """
    rng = random.Random(seed)
    deck = list(full_deck())
    rng.shuffle(deck)
    sides = []
    for _ in range(2):
        sizes = [rng.randrange(6) for _ in range(5)]
        if not any(sizes):
            sizes[rng.randrange(5)] = 1
        piles = []
        for size in sizes:
            piles.append(tuple(deck[:size]))
            del deck[:size]
        spit_size = rng.choice((0, 0, 1, 2, 5))
        sides.append(
            Side(
                stock=(piles[0], piles[1], piles[2], piles[3], piles[4]),
                spit=tuple(deck[:spit_size]),
            )
        )
        del deck[:spit_size]
    cut = rng.randrange(1, len(deck))
    centre = (tuple(deck[:cut]), tuple(deck[cut:]))
    side_pair = (sides[0], sides[1])
    return State(
        seed=seed,
        version=0,
        options=Options(pausable=pausable),
        round_no=1,
        phase=Phase.PLAY if can_go_on(side_pair, centre) else Phase.BLOCKED,
        sides=side_pair,
        centre=centre,
        pressed=frozenset(),
        paused=False,
        spits=1,
        reshuffles=0,
        outcome=None,
    )
