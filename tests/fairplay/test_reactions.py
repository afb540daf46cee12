"""Reaction times from a Spit match's log: every accepted play measured once, from the
moment it became possible, as a chain of the player's own plays or as an answer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from photofinish.arbitration.v1 import log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.fairplay.reactions import spit_reactions
from tests.fairplay.simulated import FAST_CLIENT, PERSON, Pace, constant, play_match

STEADY = Pace(answer=constant(300), chain=constant(150))


def _plays(log: list[log_pb2.LogEntry]) -> list[int]:
    return [
        int(e.index)
        for e in log
        if e.kind == log_pb2.ENTRY_KIND_ACCEPTED and e.command.spit.HasField("play")
    ]


@given(seed=st.integers(0, 2**31), rng_seed=st.integers(0, 2**31))
@settings(max_examples=25, deadline=None)
def test_every_accepted_play_is_measured_once_and_never_before_it_was_possible(
    seed: int, rng_seed: int
) -> None:
    log = play_match(seed, (PERSON, FAST_CLIENT), random.Random(rng_seed))
    reactions = spit_reactions(log)
    assert [r.index for r in reactions] == _plays(log)
    assert all(r.ms >= 0 for r in reactions)
    assert {r.seat for r in reactions} <= {0, 1}


@given(seed=st.integers(0, 2**31))
@settings(max_examples=15, deadline=None)
def test_a_steady_player_is_measured_no_faster_than_it_played(seed: int) -> None:
    """Each player plays 300 ms after a change it did not make and 150 ms after its own:
    measured from the moment a play became possible, no answer comes out under 300 ms and
    no chain under 150 ms; the quickest of each is exactly that."""
    log = play_match(seed, (STEADY, STEADY), random.Random(seed))
    reactions = spit_reactions(log)
    answers = [r.ms for r in reactions if not r.chain]
    chains = [r.ms for r in reactions if r.chain]
    assert answers and min(answers) == pytest.approx(300)
    if chains:
        assert min(chains) == pytest.approx(150)


def test_a_play_of_ones_own_freed_card_is_a_chain_and_after_the_opponent_an_answer() -> None:
    log = play_match(7, (STEADY, STEADY), random.Random(7))
    reactions = {r.index: r for r in spit_reactions(log)}
    by_index = {int(e.index): e for e in log}
    checked = 0
    for index, reaction in reactions.items():
        before = by_index[index - 1]
        if before.kind == log_pb2.ENTRY_KIND_ACCEPTED and reaction.ms == pytest.approx(150):
            assert before.seat == reaction.seat and reaction.chain  # right after its own
            checked += 1
        opponents = before.kind == log_pb2.ENTRY_KIND_ACCEPTED and before.seat != reaction.seat
        if opponents and reaction.ms == pytest.approx(300):
            assert not reaction.chain  # made possible by the opponent's play just before
            checked += 1
    assert checked > 10


def test_only_a_spit_log_is_read() -> None:
    with pytest.raises(ValueError, match="header"):
        spit_reactions([])
    bid = events_pb2.MatchCreated(game=game_pb2.GAME_BID, seed=1)
    with pytest.raises(ValueError, match="not a Spit match"):
        spit_reactions([log_pb2.LogEntry(kind=log_pb2.ENTRY_KIND_OPENED, created=bid)])
