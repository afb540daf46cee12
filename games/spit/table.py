"""Plays and moves on the table: a stock card onto a centre pile, or into an empty space.

Rules §3.2–3.3 and §6, with the project's decisions:

- A play names the centre pile top the sender saw (``onto``). Commands are applied in
  order of arrival at the server, so of two plays onto the same pile the first counts;
  the second then finds another top and is refused with ``pile_top_changed`` — or, without
  ``onto``, with ``not_adjacent``, since a card adjacent to the old top is never adjacent
  to the new one (ranks wrap modulo 13, an odd number). The refused card stays put.
- When a stock pile's top leaves, the card beneath is turned face up at once (automatic
  reveal, digital play), as an event both players see.
- A move into an empty space is a separate command and is allowed only when it uncovers
  a face-down card (see ``moves``).
- After every change the server decides whether anyone can go on; if not, the match waits
  at Gate.SPIT for the next spit.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.errors import Reason, Refused
from games.seats import Seat
from games.spit.cards import is_adjacent
from games.spit.commands import Move, Play
from games.spit.events import Blocked, Event, Moved, Played, Revealed
from games.spit.model import Phase, Pile, Side, State, Stock
from games.spit.moves import can_go_on
from games.spit.round import end_round


def play(state: State, seat: Seat, command: Play) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` plays a stock top onto a centre pile.

    Raises:
        Refused: EMPTY_STOCK, PILE_TOP_CHANGED or NOT_ADJACENT.
    """
    side = state.sides[seat]
    stock = side.stock[command.stock]
    if not stock:
        raise Refused(Reason.EMPTY_STOCK, f"{command}: stock pile {command.stock} is empty")
    pile = state.centre[command.pile]
    top = pile[-1].rank if pile else None
    if command.onto is not None and command.onto != top:
        seen = "empty" if top is None else str(top)
        raise Refused(
            Reason.PILE_TOP_CHANGED, f"{command}: the top of pile {command.pile} is now {seen}"
        )
    card = stock[-1]
    if top is None or not is_adjacent(card.rank, top):
        onto = "an empty pile" if top is None else str(top)
        raise Refused(Reason.NOT_ADJACENT, f"{command}: {card} does not go onto {onto}")
    events: list[Event] = [Played(seat=seat, stock=command.stock, pile=command.pile, card=card)]
    if len(stock) > 1:
        events.append(Revealed(seat=seat, stock=command.stock, card=stock[-2]))
    new_side = Side(stock=_with_stock(side.stock, command.stock, stock[:-1]), spit=side.spit)
    sides = (new_side, state.sides[1]) if seat == 0 else (state.sides[0], new_side)
    centre = _with_centre(state.centre, command.pile, (*pile, card))
    if not any(new_side.stock):
        # Rules §3.5: the round ends the moment a seat's five stock piles are empty.
        ended, more = end_round(_moved_to(state, sides, centre, Phase.PLAY), seat)
        return ended, events + more
    return _settled(state, sides, centre, events)


def move(state: State, seat: Seat, command: Move) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` moves a stock top into an empty space.

    Raises:
        Refused: EMPTY_STOCK, SPACE_NOT_EMPTY or NOTHING_TO_UNCOVER.
    """
    side = state.sides[seat]
    src = side.stock[command.src]
    if not src:
        raise Refused(Reason.EMPTY_STOCK, f"{command}: stock pile {command.src} is empty")
    if side.stock[command.dst]:
        raise Refused(Reason.SPACE_NOT_EMPTY, f"{command}: stock pile {command.dst} is not empty")
    if len(src) == 1:
        raise Refused(Reason.NOTHING_TO_UNCOVER, f"{command}: no card lies under {src[-1]}")
    card = src[-1]
    stock = _with_stock(_with_stock(side.stock, command.src, src[:-1]), command.dst, (card,))
    new_side = Side(stock=stock, spit=side.spit)
    sides = (new_side, state.sides[1]) if seat == 0 else (state.sides[0], new_side)
    events: list[Event] = [
        Moved(seat=seat, src=command.src, dst=command.dst, card=card),
        Revealed(seat=seat, stock=command.src, card=src[-2]),
    ]
    return _settled(state, sides, state.centre, events)


def _settled(
    state: State, sides: tuple[Side, Side], centre: tuple[Pile, Pile], events: list[Event]
) -> tuple[State, list[Event]]:
    """Return the state with the new table, at Gate.SPIT if nobody can go on (rules §3.4)."""
    if can_go_on(sides, centre):
        return _moved_to(state, sides, centre, Phase.PLAY), events
    events.append(Blocked())
    return _moved_to(state, sides, centre, Phase.BLOCKED), events


def _moved_to(
    state: State, sides: tuple[Side, Side], centre: tuple[Pile, Pile], phase: Phase
) -> State:
    return replace(state, phase=phase, sides=sides, centre=centre)


def _with_stock(stock: Stock, index: int, pile: Pile) -> Stock:
    piles = list(stock)
    piles[index] = pile
    return (piles[0], piles[1], piles[2], piles[3], piles[4])


def _with_centre(centre: tuple[Pile, Pile], index: int, pile: Pile) -> tuple[Pile, Pile]:
    return (pile, centre[1]) if index == 0 else (centre[0], pile)
