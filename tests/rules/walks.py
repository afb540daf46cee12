"""Test support: matches driven by random legal play, and what each recipient must not see.

A walk picks, at every step, a seat among those deciding and one of its legal commands
(never resigning or pausing, so matches go deep), from a seeded generator: the same seed
walks the same match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from games import bid, spit
from games.contract import Engine
from games.decision import Step
from games.nudge import nudged
from games.seats import SEATS, Seat

RECIPIENTS: tuple[Seat | None, ...] = (*SEATS, None)
_QUIET = (bid.Resign, spit.Resign, spit.Pause, spit.Resume)


@dataclass(frozen=True, slots=True)
class Move:
    """One step of a walk: who sent what from which state, and what it did."""

    before: Any
    seat: Seat
    command: Any
    step: Step[Any, Any]


def choices(engine: Engine, state: Any, rng: random.Random) -> tuple[Seat, Any] | None:
    """Return a random deciding seat and one of its legal commands, or None at the end."""
    seats = sorted(engine.decision(state).seats)
    rng.shuffle(seats)
    for seat in seats:
        legal = [c for c in engine.legal_commands(state, seat) if not isinstance(c, _QUIET)]
        if legal:
            return seat, rng.choice(legal)
    return None


def walk(engine: Engine, state: Any, rng: random.Random, steps: int) -> Iterator[Move]:
    """Yield up to ``steps`` random legal moves from ``state``, each applied to the last."""
    for _ in range(steps):
        chosen = choices(engine, state, rng)
        if chosen is None:
            return
        seat, command = chosen
        step = engine.apply(state, seat, command)
        yield Move(state, seat, command, step)
        state = step.state


def nudged_walk(
    engine: Engine, state: Any, rng: random.Random, steps: int, nudging: float = 0.3
) -> Iterator[tuple[Any, Step[Any, Any]]]:
    """Yield up to ``steps`` (state, step) pairs of a walk in which, with chance ``nudging``
    at each step, the arbitration's nudge lifts a pending gate instead (at a Ready gate one
    step of several: a press for each seat)."""
    for _ in range(steps):
        step = nudged(engine, state) if rng.random() < nudging else None
        if step is None:
            chosen = choices(engine, state, rng)
            if chosen is None:
                return
            step = engine.apply(state, *chosen)
        yield state, step
        state = step.state


def bid_hidden(state: bid.State, seat: Seat | None) -> set[str]:
    """Return the texts of the tiles ``seat`` (None: a spectator) may not see."""
    hidden = set(state.boneyard)
    for owner in SEATS:
        if owner != seat:
            hidden |= set(state.hands[owner])
    return {str(tile) for tile in hidden}


def spit_hidden(state: spit.State, seat: Seat | None) -> set[str]:
    """Return the texts of the cards nobody may see, the owner included."""
    del seat
    return {str(card) for card in state.face_down()}


def shown(serialized: bytes, hidden: set[str]) -> set[str]:
    """Return the hidden texts that appear anywhere in a serialized message."""
    return {secret for secret in hidden if secret.encode() in serialized}


def reach(engine: Engine, start: Any, wanted: Callable[[Any], bool], seed: int = 0) -> Any:
    """Return the first state a seeded random walk from ``start`` reaches that is ``wanted``.

    Raises:
        LookupError: when a few hundred walks never get there.
    """
    moves = route(engine, start, wanted, seed)
    return moves[-1].step.state if moves else start


def route(engine: Engine, start: Any, wanted: Callable[[Any], bool], seed: int = 0) -> list[Move]:
    """Return the moves of the first seeded random walk from ``start`` to a ``wanted`` state.

    Raises:
        LookupError: when a few hundred walks never get there.
    """
    if wanted(start):
        return []
    for attempt in range(300):
        rng = random.Random(seed * 1000 + attempt)
        moves = []
        for move in walk(engine, start, rng, 600):
            moves.append(move)
            if wanted(move.step.state):
                return moves
    raise LookupError("no walk reached the wanted state")


def spit_race(state: spit.State) -> tuple[spit.Play, spit.Play] | None:
    """Return one play for each seat onto the same centre pile, if both have one."""
    plays = [
        {c.pile: c for c in spit.legal_commands(state, seat) if isinstance(c, spit.Play)}
        for seat in SEATS
    ]
    for pile, first in plays[0].items():
        if pile in plays[1]:
            return first, plays[1][pile]
    return None
