"""The end of a round: who takes which centre pile, the next deal, or the end of the match.

Project decisions (rules §3.5, §3.6, §4, §5):

- A round ends **at the moment** a seat empties all five stock piles (only a play can do
  that). If that seat also has no spit pile, it has won (rules §5, Termination.CARDS).
- Otherwise the finisher takes the **smaller** centre pile; with equal sizes it takes the
  pile on its own side (index = its seat). The other seat takes the larger pile together
  with all its remaining stock cards. Each seat also keeps its own spit pile.
- Each seat's cards are then shuffled (seeded; the seed text leaves shuffling open) and
  laid out again as in ``deal.lay_out`` — fewer than 15 cards leave piles unfilled. The new
  round waits at Gate.CONTINUE for both Ready; then its first spit happens at once.
- A seat left with no cards at the end of a round wins (rules §4). Under the rules above
  this is only ever the finisher without a spit pile, but the check is general.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.decision import Outcome, Termination
from games.seats import SEATS, Seat, other
from games.spit.cards import Card
from games.spit.deal import deal_round
from games.spit.events import Dealt, Ended, Event, RoundEnded
from games.spit.model import Phase, Side, State


def end_round(state: State, finisher: Seat) -> tuple[State, list[Event]]:
    """Return the state after ``finisher`` emptied its stock piles, and what happened."""
    if not state.sides[finisher].spit:
        return finish(state, Outcome(winner=finisher, termination=Termination.CARDS))
    taken = _smaller_pile(state, finisher)
    loser = other(finisher)
    hands: list[list[Card]] = [[], []]
    hands[finisher] = [*state.sides[finisher].spit, *state.centre[taken]]
    hands[loser] = [
        *state.sides[loser].spit,
        *(card for pile in state.sides[loser].stock for card in pile),
        *state.centre[1 - taken],
    ]
    counts = (len(hands[0]), len(hands[1]))
    events: list[Event] = [
        RoundEnded(round_no=state.round_no, finisher=finisher, taken=taken, card_counts=counts)
    ]
    for seat in SEATS:
        if not hands[seat]:
            state, ended = finish(state, Outcome(winner=seat, termination=Termination.CARDS))
            return state, events + ended
    round_no = state.round_no + 1
    sides = deal_round(state.seed, round_no, (hands[0], hands[1]))
    state = replace(
        state,
        round_no=round_no,
        phase=Phase.CONTINUE,
        sides=sides,
        centre=((), ()),
        pressed=frozenset(),
    )
    events += [dealt(round_no, seat, sides[seat]) for seat in SEATS]
    return state, events


def _smaller_pile(state: State, finisher: Seat) -> int:
    """Return the index of the smaller centre pile; the finisher's own on a tie."""
    sizes = [len(pile) for pile in state.centre]
    if sizes[0] == sizes[1]:
        return int(finisher)
    return 0 if sizes[0] < sizes[1] else 1


def finish(state: State, outcome: Outcome) -> tuple[State, list[Event]]:
    """Return ``state`` ended with ``outcome``: nobody may act any more."""
    over = replace(state, phase=Phase.OVER, pressed=frozenset(), paused=False, outcome=outcome)
    return over, [Ended(outcome=outcome)]


def dealt(round_no: int, seat: Seat, side: Side) -> Dealt:
    """Return the public account of ``side`` as just laid out: tops and face-down counts."""
    return Dealt(
        round_no=round_no,
        seat=seat,
        tops=tuple(pile[-1] if pile else None for pile in side.stock),
        hidden=tuple(max(len(pile) - 1, 0) for pile in side.stock),
        spit_count=len(side.spit),
    )
