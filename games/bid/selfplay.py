"""Bot-vs-bot matches played to the end at once, think times ignored (benchmarks, tournaments)."""

from __future__ import annotations

import random
from typing import NamedTuple

from games.bid.bots import plan
from games.bid.model import Options
from games.bid.rules import apply, decision, new_match
from games.bid.view import view
from games.bot import Level
from games.decision import Outcome


class MatchRecord(NamedTuple):
    """How a self-play match ended, the round it ended in, and how many commands it took.

    A tuple, so ``outcome, rounds, commands = play_match(...)`` works.
    """

    outcome: Outcome
    rounds: int
    commands: int


def play_match(
    level_a: Level,
    level_b: Level,
    seed: int,
    options: Options | None = None,
    max_commands: int = 200_000,
) -> MatchRecord:
    """Return the record of a match between seat 0 at ``level_a`` and seat 1 at ``level_b``.

    The bots draw their choices from ``random.Random(f"bots/{seed}")``, so a seed replays.

    Raises:
        RuntimeError: when the match has not ended after ``max_commands`` commands.
    """
    rng = random.Random(f"bots/{seed}")
    levels = (level_a, level_b)
    state = new_match(options or Options(), seed)
    commands = 0
    while state.outcome is None:
        if commands >= max_commands:
            raise RuntimeError(f"match {seed} did not end in {max_commands} commands")
        seat = min(decision(state).seats)
        chosen = plan(view(state, seat), seat, levels[seat], rng)
        assert chosen is not None
        state = apply(state, seat, chosen.command).state
        commands += 1
    return MatchRecord(state.outcome, state.round_no, commands)
