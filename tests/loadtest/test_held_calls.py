"""bench.held_calls times what the rules service does for a command it takes: every
recorded command must be taken, or the figure would be the cost of refusals."""

from __future__ import annotations

import pytest

from bench.engines import record
from bench.held_calls import batches, stored_commands, time_pass, time_stored_pass
from games.registry import GAMES, Game


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_recorded_command_is_taken_by_the_held_path(game: Game) -> None:
    logs = record(game, 2)
    calls = batches(game, logs)
    timed = time_pass(game, logs, calls)
    assert timed.calls == sum(len(log.commands) for log in logs) > 0
    assert timed.refused == 0
    # A second pass deals the matches afresh: the same calls are taken again.
    assert time_pass(game, logs, calls).refused == 0


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_recorded_command_is_taken_when_the_log_feeds_it(game: Game) -> None:
    logs = record(game, 2)
    timed = time_stored_pass(game, logs, stored_commands(game, logs))
    assert timed.calls == sum(len(log.commands) for log in logs) > 0
    assert timed.refused == 0
