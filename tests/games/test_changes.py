"""Every game's view follows from the last one and a step's events: what a client that
keeps its view applies, called the way the services call an engine (``games.contract``),
and again from what the wire carries (the codec's inverses).

The engines' own property tests check it after every step of long random matches with
illegal input mixed in; here each registered game's whole match, to its end or a forfeit.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.decision import Step, Termination
from games.nudge import nudged
from games.registry import GAMES, Game
from games.seats import Seat
from photofinish.game.v1 import game_pb2
from tests.rules.walks import RECIPIENTS, nudged_walk, walk


def brought_forward(game: Game, before: Any, step: Step[Any, Any]) -> None:
    engine, codec = game.engine, game.codec
    for seat in RECIPIENTS:
        heard = engine.events_for(step.events, seat)
        told = engine.told(step.state, seat)
        last = engine.view(before, seat)
        now = engine.view(step.state, seat)
        assert engine.changed(last, heard, told) == now
        # As a client does it, from what the wire carries: the last view it was sent, the
        # step's events and what they do not tell.
        kept = codec.view_from_proto(codec.view_to_proto(last))
        events = [codec.event_from_proto(codec.event_to_proto(e), seat) for e in heard]
        assert codec.told_to_bytes(told) == codec.told_to_proto(told).SerializeToString()
        assert engine.tolds(step.state, RECIPIENTS)[RECIPIENTS.index(seat)] == told
        told_sent = codec.told_from_proto(game_pb2.View.FromString(codec.told_to_bytes(told)))
        assert codec.view_to_proto(engine.changed(kept, tuple(events), told_sent)) == (
            codec.view_to_proto(now)
        )


@pytest.mark.parametrize("game", GAMES, ids=str)
@pytest.mark.parametrize("seed", range(6))
def test_each_view_is_the_last_one_brought_forward_by_the_step(game: Game, seed: int) -> None:
    state = game.engine.new_match(game.options, seed)
    steps = 0
    for move in walk(game.engine, state, random.Random(seed), 5_000):
        brought_forward(game, move.before, move.step)
        state, steps = move.step.state, steps + 1
    assert steps > 50
    if game.engine.outcome(state) is None:
        forfeit = game.engine.forfeit(state, Seat(seed % 2), Termination.TIME)
        brought_forward(game, state, forfeit)


@pytest.mark.parametrize("game", GAMES, ids=str)
@pytest.mark.parametrize("seed", range(4))
def test_a_nudge_that_takes_several_steps_is_brought_forward_in_one(game: Game, seed: int) -> None:
    # At a Ready gate the arbitration's nudge presses for every seat: one step of several.
    state = game.engine.new_match(game.options, seed)
    opening = nudged(game.engine, state)  # both seats still to press at the start
    assert opening is not None and opening.state.version == state.version + 2
    brought_forward(game, state, opening)
    for before, step in nudged_walk(game.engine, opening.state, random.Random(seed), 400, 0.5):
        brought_forward(game, before, step)
