"""Computer opponents for Spit (rules §7: easy, medium, hard): what to send and when.

A bot sees only its ``View`` — exactly what a person at that seat sees — and draws every
random choice from the generator it is given. Difficulty is reaction speed and move
quality:

Think time is lognormal, ``median · exp(σ · N(0, 1))``, clamped:

======  ==========  ====  ================  ==========================================
level   median ms   σ     clamp ms          pace
======  ==========  ====  ================  ==========================================
EASY    1400        0.35  600 – 4000        a casual player
MEDIUM  800         0.30  350 – 2500        a practised player
HARD    380         0.25  200 – 1000        about a human expert's pace
======  ==========  ====  ================  ==========================================

Move quality:

- EASY looks at one centre pile at a time (the first chosen at random), and on each look
  misses a move it could make with probability 0.3; each look costs a think time. After
  four looks it plays whatever it finally notices. It never plans ahead, and it uses an
  empty space to uncover a card only as a last resort, when no play is left at all —
  never doing so would let a match stall, since the server does not spit while an
  uncovering move exists.
- MEDIUM picks any legal play or uncovering move at random, both piles in view.
- HARD watches both piles and scores its plays: chaining (a card that one of its other
  tops can follow, e.g. 8 then 9), uncovering face-down cards, opening a space it can use,
  and not handing the opponent a play; it uses empty spaces when it has no play.

Every bot presses Ready at a gate and sends a numbered Spit at Gate.SPIT, and every Play
names the pile top the bot saw (``onto``), so a play overtaken by the opponent is refused
with ``pile_top_changed`` rather than landing somewhere unintended.
"""

from __future__ import annotations

import math
import random

import msgspec

from games.bot import Level, Plan
from games.decision import Gate
from games.seats import Seat, other
from games.spit.cards import Card, is_adjacent
from games.spit.commands import Command, Move, Play, Ready, Spit
from games.spit.view import SideView, View


class Pace(msgspec.Struct, frozen=True):
    """A level's think-time distribution: lognormal around ``median_ms``, clamped."""

    median_ms: float
    sigma: float
    min_ms: int
    max_ms: int


PACES = {
    Level.EASY: Pace(median_ms=1400, sigma=0.35, min_ms=600, max_ms=4000),
    Level.MEDIUM: Pace(median_ms=800, sigma=0.30, min_ms=350, max_ms=2500),
    Level.HARD: Pace(median_ms=380, sigma=0.25, min_ms=200, max_ms=1000),
}
EASY_MISS = 0.3
EASY_LOOKS = 4


def think_ms(level: Level, rng: random.Random) -> int:
    """Return one think time for ``level``, drawn from its ``Pace``."""
    pace = PACES[level]
    drawn = pace.median_ms * math.exp(pace.sigma * rng.gauss(0.0, 1.0))
    return min(max(round(drawn), pace.min_ms), pace.max_ms)


def plan(view: View, seat: Seat, level: Level, rng: random.Random) -> Plan[Command] | None:
    """Return the bot's next command and think time, or None when it has nothing to do."""
    if view.outcome is not None or view.paused:
        return None
    if view.gate in (Gate.START, Gate.CONTINUE):
        return Plan(Ready(), think_ms(level, rng)) if seat in view.must_press else None
    if view.gate is Gate.SPIT:
        return Plan(Spit(number=view.spits + 1), think_ms(level, rng))
    if level is Level.EASY:
        return _plan_easy(view, seat, rng)
    if level is Level.MEDIUM:
        options: list[Command] = [*_plays(view, seat, (0, 1)), *_uncovers(view.sides[seat])]
        return Plan(rng.choice(options), think_ms(level, rng)) if options else None
    return _plan_hard(view, seat, rng)


def _plan_easy(view: View, seat: Seat, rng: random.Random) -> Plan[Command] | None:
    first = rng.randrange(2)
    spent = 0
    for look in range(EASY_LOOKS):
        spent += think_ms(Level.EASY, rng)
        seen = _plays(view, seat, ((first + look) % 2,))
        if seen and rng.random() >= EASY_MISS:
            chosen: Command = rng.choice(seen)
            return Plan(chosen, spent)
    late: list[Command] = [*_plays(view, seat, (0, 1))]
    if not late:
        # Last resort, so that the match cannot stall (see the module docstring).
        late.extend(_uncovers(view.sides[seat]))
    return Plan(rng.choice(late), spent) if late else None


def _plan_hard(view: View, seat: Seat, rng: random.Random) -> Plan[Command] | None:
    scored = [(_score(view, seat, play), rng.random(), play) for play in _plays(view, seat, (0, 1))]
    if scored:
        # The random second key breaks ties between equally good plays.
        best = max(scored, key=lambda entry: (entry[0], entry[1]))
        return Plan(best[2], think_ms(Level.HARD, rng))
    side = view.sides[seat]
    moves = sorted(_uncovers(side), key=lambda move: -side.stock[move.src].hidden)
    return Plan(moves[0], think_ms(Level.HARD, rng)) if moves else None


def _score(view: View, seat: Seat, play: Play) -> int:
    """Return how much HARD likes ``play``: chains, uncovers, spaces, and denial."""
    own = view.sides[seat]
    card = own.stock[play.stock].top
    assert card is not None, "a play's stock pile has a top"
    follow_ups = sum(
        1
        for index, pile in enumerate(own.stock)
        if index != play.stock and _follows(pile.top, card)
    )
    hidden = own.stock[play.stock].hidden
    space_useful = hidden == 0 and any(pile.hidden for pile in own.stock)
    fed = sum(1 for pile in view.sides[other(seat)].stock if _follows(pile.top, card))
    return 4 * min(follow_ups, 2) + (3 if hidden else 0) + (2 if space_useful else 0) - fed


def _follows(top: Card | None, card: Card) -> bool:
    """Return whether ``top`` could be played onto ``card`` once ``card`` is a centre top."""
    return top is not None and is_adjacent(top.rank, card.rank)


def _plays(view: View, seat: Seat, piles: tuple[int, ...]) -> list[Play]:
    """Return every play from ``seat``'s tops onto the given centre piles."""
    found: list[Play] = []
    for pile in piles:
        top = view.centre[pile].top
        if top is None:
            continue
        for stock, held in enumerate(view.sides[seat].stock):
            if held.top is not None and is_adjacent(held.top.rank, top.rank):
                found.append(Play(stock=stock, pile=pile, onto=top.rank))
    return found


def _uncovers(side: SideView) -> list[Move]:
    """Return every move into an empty space that uncovers a face-down card."""
    spaces = [index for index, pile in enumerate(side.stock) if pile.top is None]
    return [
        Move(src=src, dst=dst)
        for src, pile in enumerate(side.stock)
        if pile.hidden
        for dst in spaces
    ]
