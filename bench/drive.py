"""Bot-vs-bot command logs for any engine, without simulated time (for timing replays)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bot import Level
from games.contract import Bots, Engine
from games.errors import Refused
from games.seats import SEATS, Seat


@dataclass(frozen=True, slots=True)
class Log:
    """A match as the arbitration would record it: options, seed and the applied commands."""

    options: Any
    seed: int
    commands: tuple[tuple[Seat, Any], ...]
    finished: bool


def drive(
    engine: Engine,
    bots: Bots,
    options: Any,
    seed: int,
    levels: tuple[Level, Level],
    max_commands: int = 20_000,
) -> Log:
    """Return the log of one match where each seat asks its bot in turn, ignoring think times.

    Commands a bot planned from a view that another command made stale are refused and
    left out of the log, as the arbitration would refuse them.
    """
    rng = random.Random(seed)
    state = engine.new_match(options, seed)
    applied: list[tuple[Seat, Any]] = []
    idle_rounds = 0
    while engine.outcome(state) is None and len(applied) < max_commands and idle_rounds < 3:
        moved = False
        for seat in SEATS if rng.random() < 0.5 else SEATS[::-1]:
            plan = bots.plan(engine.view(state, seat), seat, levels[seat], rng)
            if plan is None:
                continue
            try:
                state = engine.apply(state, seat, plan.command).state
            except Refused:
                continue
            applied.append((seat, plan.command))
            moved = True
            if engine.outcome(state) is not None:
                break
        idle_rounds = 0 if moved else idle_rounds + 1
    return Log(options, seed, tuple(applied), engine.outcome(state) is not None)
