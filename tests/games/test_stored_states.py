"""A stored state's bytes do not change with the code that writes them.

The match log keeps each step's state hash (the sha256 of ``encode_state``), and a replay
or a restore checks the state it rebuilds against it: a log written by an earlier release
must still check. Each game's matches here are played from fixed seeds by a fixed rule (a
seeded choice among the legal commands of the seats whose decision it is, never a
resignation), and the hash over every state of each is pinned. It was taken when the
games' values were dataclasses and holds for the msgspec Structs they are now: a change of
encoding (field names, order, defaults left out, arrays for maps) fails here, not in a
player's replay.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from games import bid, spit
from games.registry import BID, SPIT, Game

STEPS = 400
RESIGNATIONS = (spit.Resign, bid.Resign)
SEEDS = (2026, 2027, 2028)
PINNED = {
    "spit": [
        "c176888ac8733f360c810c867e56d5c7a5aabbd2ef15a3577cfbcc62a18e4df5",
        "4185c54982538ef1e64a8ff1f1c2e70988c8484ac192ca088aa6489569f054af",
        "a07be85763c8a6ff0167f649b5344b079d71438001bb9fc3653dcf2aa5abd783",
    ],
    "bid": [
        "68e75032d1daba974ed0beabead0580d945418d464cc0885708cdca081b303ee",
        "9acf71d1a489823dbc8ef027338853ccbc6a83a75cd9f3d2ce5e144866ea2c15",
        "b74bcab03859b5d74db1431f14ddc2c60337088709dd130e2e94455a44ab24b1",
    ],
}


def played_hash(game: Game, seed: int) -> str:
    """Return the sha256 over the encoding of every state of a fixed match of ``game``."""
    engine = game.engine
    state = engine.new_match(game.options, seed)
    rng = random.Random(seed)
    digest = hashlib.sha256(engine.encode_state(state))
    for _ in range(STEPS):
        if engine.outcome(state) is not None:
            break
        choices = [
            (seat, command)
            for seat in sorted(engine.decision(state).seats)
            for command in engine.legal_commands(state, seat)
            if not isinstance(command, RESIGNATIONS)
        ]
        if not choices:
            break
        seat, command = rng.choice(choices)
        state = engine.apply(state, seat, command).state
        digest.update(engine.encode_state(state))
    return digest.hexdigest()


@pytest.mark.parametrize("game", [SPIT, BID], ids=lambda g: g.name)
def test_the_states_of_fixed_matches_encode_as_they_always_have(game: Game) -> None:
    assert [played_hash(game, seed) for seed in SEEDS] == PINNED[game.name]
