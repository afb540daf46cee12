"""Views decoded from the wire are the engine's views: view -> proto -> view is the identity.

Positions come from seeded random play (every legal command but resigning, pauses and
resumes included for a pausable Spit match), for every recipient, and from the end of
matches forfeited on time or by resignation, so outcomes are covered too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import bid, spit
from games.bid import codec as bid_codec
from games.codec import gate_from_proto, gate_to_proto
from games.contract import Engine
from games.decision import Gate, Termination
from games.errors import Malformed
from games.seats import SEATS, Seat
from games.spit import codec as spit_codec
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2

SEEDS = st.integers(min_value=0, max_value=2**63)
RECIPIENTS: tuple[Seat | None, ...] = (*SEATS, None)
STEPS = 300
SPADES, NO_SUIT = spit_pb2.SUIT_SPADES, spit_pb2.SUIT_UNSPECIFIED


def states(engine: Engine, state: Any, rng: random.Random, quiet: type) -> Iterator[Any]:
    """Yield ``state`` and every state of a random legal walk from it, then a forfeit."""
    yield state
    for _ in range(STEPS):
        seats = sorted(engine.decision(state).seats)
        legal = [
            (seat, command)
            for seat in seats
            for command in engine.legal_commands(state, seat)
            if not isinstance(command, quiet)
        ]
        if not legal:
            return
        seat, command = rng.choice(legal)
        state = engine.apply(state, seat, command).state
        yield state
    if engine.outcome(state) is not None:
        return  # the walk's last step ended the match: nothing is left to forfeit
    loser = Seat(rng.randrange(2))
    yield engine.forfeit(state, loser, rng.choice((Termination.TIME, Termination.RESIGN))).state


@settings(max_examples=40)
@given(SEEDS, SEEDS)
def test_bid_views_of_random_play_round_trip(seed: int, walk_seed: int) -> None:
    for state in states(
        bid, bid.new_match(bid.Options(), seed), random.Random(walk_seed), bid.Resign
    ):
        for seat in RECIPIENTS:
            view = bid.view(state, seat)
            assert bid_codec.view_from_proto(bid_codec.view_to_proto(view)) == view


@settings(max_examples=40)
@given(SEEDS, SEEDS, st.booleans())
def test_spit_views_of_random_play_round_trip(seed: int, walk_seed: int, pausable: bool) -> None:
    start = spit.new_match(spit.Options(pausable=pausable), seed)
    for state in states(spit, start, random.Random(walk_seed), spit.Resign):
        for seat in RECIPIENTS:
            view = spit.view(state, seat)
            assert spit_codec.view_from_proto(spit_codec.view_to_proto(view)) == view


def test_random_play_reaches_what_the_decoders_must_rebuild() -> None:
    """The walks above are not vacuous: they reach auctions, settlements, spinners,
    drawn tiles, paused and spit gates, and outcomes."""
    seen: set[str] = set()
    for seed in range(6):
        for state in states(
            bid, bid.new_match(bid.Options(), seed), random.Random(seed), bid.Resign
        ):
            view = bid.view(state, Seat(0))
            seen |= {name for name, value in _bid_features(view).items() if value}
        start = spit.new_match(spit.Options(pausable=True), seed)
        for state in states(spit, start, random.Random(seed), spit.Resign):
            spit_view = spit.view(state, None)
            if spit_view.gate is not None:
                seen.add(f"spit {spit_view.gate.value}")
            if spit_view.outcome is not None:
                seen.add("spit outcome")
    wanted = {"auction", "bidder", "settlement", "spinner", "branches", "must_play", "outcome"}
    assert wanted | {"spit start", "spit spit", "spit paused", "spit outcome"} <= seen


def _bid_features(view: bid.View) -> dict[str, object]:
    return {
        "auction": view.auction,
        "bidder": view.auction and view.auction.bidder is not None,
        "settlement": view.last_settlement,
        "spinner": view.board.spinner,
        "branches": view.board.branches_open,
        "must_play": view.must_play,
        "outcome": view.outcome,
    }


def test_a_view_of_the_other_game_is_malformed() -> None:
    spit_view = spit_codec.view_to_proto(spit.view(spit.new_match(spit.Options(), 1), None))
    bid_view = bid_codec.view_to_proto(bid.view(bid.new_match(bid.Options(), 1), None))
    with pytest.raises(Malformed):
        bid_codec.view_from_proto(spit_view)
    with pytest.raises(Malformed):
        spit_codec.view_from_proto(bid_view)
    with pytest.raises(Malformed):
        spit_codec.view_from_proto(game_pb2.View())


@pytest.mark.parametrize(
    "garble",
    [
        lambda v: v.bid.hand_counts.append(3),
        lambda v: v.bid.balances.pop(),
        lambda v: setattr(v.bid, "seat", 2),
        lambda v: setattr(v.bid, "gate", game_pb2.GATE_HANDOVER),
        lambda v: v.bid.hand.append(bid_pb2.Tile(low=3, high=9)),
        lambda v: setattr(v.bid, "winner", 0),  # a winner with no termination
    ],
)
def test_a_garbled_bid_view_is_malformed(garble: Any) -> None:
    wire = bid_codec.view_to_proto(bid.view(bid.new_match(bid.Options(), 3), Seat(0)))
    garble(wire)
    with pytest.raises(Malformed):
        bid_codec.view_from_proto(wire)


@pytest.mark.parametrize(
    "garble",
    [
        lambda v: v.spit.sides.pop(),
        lambda v: v.spit.centre.add(),
        lambda v: (
            v.spit.sides[0].stock[0].top.CopyFrom(spit_pb2.Card(rank=14, suit=spit_pb2.SUIT_SPADES))
        ),
        lambda v: (
            v.spit.sides[0]
            .stock[0]
            .top.CopyFrom(spit_pb2.Card(rank=3, suit=spit_pb2.SUIT_UNSPECIFIED))
        ),
        lambda v: v.spit.must_press.append(5),
    ],
)
def test_a_garbled_spit_view_is_malformed(garble: Any) -> None:
    wire = spit_codec.view_to_proto(spit.view(spit.new_match(spit.Options(), 3), Seat(1)))
    garble(wire)
    with pytest.raises(Malformed):
        spit_codec.view_from_proto(wire)


def test_the_gate_numbers_decode_to_the_engine_gates() -> None:
    for gate in (None, *Gate):
        assert gate_from_proto(gate_to_proto(gate)) is gate
