"""bench.arbitration_path times the arbitration's own work on commands it takes: each
recorded command must go the whole way (taken, stored, shown) and the rules' share be
counted apart, or the figure would be of refusals, or of the rules."""

from __future__ import annotations

import pytest

from bench.arbitration_path import time_pass
from bench.engines import record
from games.registry import GAMES, Game
from runtime import loops


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "direct"])
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_recorded_command_is_taken_and_the_rules_counted_apart(
    game: Game, stored: bool
) -> None:
    logs = record(game, 2)
    timed = loops.run(time_pass(game, logs, stored))
    assert timed.commands == sum(len(log.commands) for log in logs) > 0
    assert timed.refused == 0
    assert 0 < timed.rules_cpu_s < timed.cpu_s
    # Stored first, every command went by the log; else none did.
    assert timed.fed == (timed.commands if stored else 0)
