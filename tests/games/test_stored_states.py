"""A stored state's bytes do not change with the code that writes them.

The match log keeps each step's state hash (the sha256 of ``encode_state``), and a replay
or a restore checks the state it rebuilds against it: a log written by an earlier release
must still check. Each game's matches here are played from fixed seeds by the tests'
seeded random walk (``tests/rules/walks.py``: legal commands only, never a resignation
or a pause), and the hash over every state of each is pinned. It was taken when the
games' values were dataclasses and holds for the msgspec Structs they are now: a change of
encoding (field names, order, defaults left out, arrays for maps) fails here, not in a
player's replay.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from games.registry import BID, SPIT, Game
from tests.rules.walks import walk

STEPS = 400
SEEDS = (2026, 2027, 2028)
PINNED = {
    "spit": [
        "8fadb03399f17d75d40a1fe30023083110900abad04499871468c101c43272de",
        "9e014b6851b65247f4b52c258b9640071ca7816e902a38169450214f2b1240e5",
        "751c0f8e7aa9bba3c7dcaf905df38ab0828cca53d8c6cd63db173b2c2b4944e0",
    ],
    "bid": [
        "2582341121e79e4f0df77b98801c893f5491a14020c08b20dea70678cdbc9260",
        "1aa1b42213d227ad75b140d0c1b7c2ebecf4a20786c756c43bf74521527bbf9a",
        "c5fb6eed15cc166b954806f5c4e6f903f84a3a255fba4e4f81cd52e40cf3ac53",
    ],
}


def played_hash(game: Game, seed: int) -> str:
    """Return the sha256 over the encoding of every state of a fixed match of ``game``."""
    engine = game.engine
    state = engine.new_match(game.options, seed)
    digest = hashlib.sha256(engine.encode_state(state))
    for move in walk(engine, state, random.Random(seed), STEPS):
        digest.update(engine.encode_state(move.step.state))
    return digest.hexdigest()


@pytest.mark.parametrize("game", [SPIT, BID], ids=lambda g: g.name)
def test_the_states_of_fixed_matches_encode_as_they_always_have(game: Game) -> None:
    assert [played_hash(game, seed) for seed in SEEDS] == PINNED[game.name]
