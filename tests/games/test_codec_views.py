"""Views and events on the wire: every reachable state converts, and nothing hidden leaks.

States come from random legal play (seeded). Leaks are looked for in the serialized
messages themselves: no hidden tile's or face-down card's text may appear anywhere in a
recipient's view or events. A view shows what is hidden *after* the step; an event may
name what was public at some moment of the step (a tile played, then re-dealt), so events
are checked against what was hidden both before and after it, except what the recipient
saw during the step (a tile played; a tile it drew itself, before a new deal took it).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import bid, spit
from games.bid import codec as bid_codec
from games.seats import Seat
from games.spit import codec as spit_codec
from photofinish.game.v1 import game_pb2
from tests.rules.walks import RECIPIENTS, Move, bid_hidden, shown, spit_hidden, walk

SEEDS = st.integers(min_value=0, max_value=2**63)


def seen_in(move: Move, seat: Seat | None) -> set[str]:
    """Return the tiles ``seat`` saw during a Bid step: those played, and those it drew."""
    seen: set[str] = set()
    for event in move.step.events:
        if isinstance(event, bid.Played):
            seen.add(str(event.tile))
        elif isinstance(event, bid.Drew) and event.seat == seat:
            seen |= {str(tile) for tile in event.tiles}
    return seen


def _serialized_events(events: tuple[object, ...], encode: object) -> bytes:
    assert callable(encode)
    return b"".join(encode(event).SerializeToString() for event in events)


@settings(max_examples=25)
@given(SEEDS, SEEDS)
def test_bid_views_and_events_of_random_play_convert_and_never_leak(
    seed: int, walk_seed: int
) -> None:
    state = bid.new_match(bid.Options(), seed)
    for move in walk(bid, state, random.Random(walk_seed), 400):
        after = move.step.state
        sent = bid_codec.views_to_bytes(bid.views(after, RECIPIENTS))  # what leaves a step
        for seat, data in zip(RECIPIENTS, sent, strict=True):
            wire = bid_codec.view_to_proto(bid.view(after, seat))
            assert shown(wire.SerializeToString(), bid_hidden(after, seat)) == set()
            assert shown(data, bid_hidden(after, seat)) == set()
            told = bid_codec.told_to_proto(bid.told(after, seat)).SerializeToString()
            assert shown(told, bid_hidden(after, seat)) == set()  # a change's part of a view
            assert wire.bid.seat == (-1 if seat is None else seat)
            assert len(wire.bid.hand) == (0 if seat is None else len(after.hands[seat]))
            events = bid.events_for(move.step.events, seat)
            hidden = bid_hidden(move.before, seat) & bid_hidden(after, seat) - seen_in(move, seat)
            assert shown(_serialized_events(events, bid_codec.event_to_proto), hidden) == set()
            for event in events:
                if isinstance(event, bid.Dealt):  # a deal ends its step: the hands are as dealt
                    dealt = bid_codec.event_to_proto(event).bid.dealt
                    own = () if seat is None else after.hands[seat]
                    assert [t.text for t in dealt.hand] == [str(t) for t in own]
                    assert dealt.hand_size == len(after.hands[0]) == len(after.hands[1])


def test_a_deal_with_both_hands_is_never_encoded() -> None:
    hands = ((bid.parse_tile("[1|2]"),), (bid.parse_tile("[3|4]"),))
    with pytest.raises(ValueError, match="events_for"):
        bid_codec.event_to_proto(bid.Dealt(2, 14, 1, hands))
    for seat in (Seat(0), Seat(1), None):
        (told,) = bid.events_for((bid.Dealt(2, 14, 1, hands),), seat)
        assert isinstance(told, bid.Dealt)
        assert told.hands == tuple(
            hand if holder == seat else () for holder, hand in enumerate(hands)
        )
        bid_codec.event_to_proto(told)


@settings(max_examples=15)
@given(SEEDS, SEEDS)
def test_spit_views_and_events_of_random_play_convert_and_never_leak(
    seed: int, walk_seed: int
) -> None:
    state = spit.new_match(spit.Options(pausable=True), seed)
    for move in walk(spit, state, random.Random(walk_seed), 400):
        after = move.step.state
        sent = spit_codec.views_to_bytes(spit.views(after, RECIPIENTS))  # what leaves a step
        for seat, data in zip(RECIPIENTS, sent, strict=True):
            wire = spit_codec.view_to_proto(spit.view(after, seat))
            assert shown(wire.SerializeToString(), spit_hidden(after, seat)) == set()
            assert shown(data, spit_hidden(after, seat)) == set()
            events = spit.events_for(move.step.events, seat)
            hidden = spit_hidden(move.before, seat) & spit_hidden(after, seat)
            assert shown(_serialized_events(events, spit_codec.event_to_proto), hidden) == set()


def test_a_bid_view_lists_the_legal_commands_the_engine_lists() -> None:
    rng = random.Random(3)
    state = bid.new_match(bid.Options(), 11)
    for move in walk(bid, state, rng, 120):
        after = move.step.state
        for seat in (Seat(0), Seat(1)):
            engine_view = bid.view(after, seat)
            wire = bid_codec.view_to_proto(engine_view)
            decoded = [
                bid_codec.command_from_proto(game_pb2.Command(bid=command))
                for command in wire.bid.legal
            ]
            assert decoded == list(engine_view.legal)


def test_a_bid_board_says_where_every_tile_joined() -> None:
    rng = random.Random(5)
    state = bid.new_match(bid.Options(), 2)
    boards = [m.step.state.board for m in walk(bid, state, rng, 200)]
    board = max(boards, key=lambda b: len(b.placements))
    assert len(board.placements) >= 3
    wire = bid_codec.view_to_proto(bid.view(bid.new_match(bid.Options(), 2), None)).bid
    assert not wire.board.placements
    from games.bid.codec.board import board_to_proto

    placed = board_to_proto(board).placements
    assert not placed[0].HasField("on")
    for engine_placement, wire_placement in zip(board.placements[1:], placed[1:], strict=True):
        assert engine_placement.on is not None and engine_placement.via is not None
        assert wire_placement.on.text == str(engine_placement.on)
        assert wire_placement.tile.text == str(engine_placement.tile)
        assert wire_placement.via != 0


@settings(max_examples=20)
@given(SEEDS, SEEDS, st.booleans())
def test_a_steps_views_as_sent_are_each_the_view_as_built_alone(
    seed: int, walk_seed: int, spit_pausable: bool
) -> None:
    # A step's views are encoded by hand (games.protowire), what every recipient sees
    # once: each recipient still decodes exactly its own view, as the generated classes
    # build it, and the client's decoding gives the engine's view back.
    for engine, codec, options in (
        (bid, bid_codec, bid.Options()),
        (spit, spit_codec, spit.Options(pausable=spit_pausable)),
    ):
        state = engine.new_match(options, seed)
        moves = list(walk(engine, state, random.Random(walk_seed), 200))
        for after in [state, *(move.step.state for move in moves)]:
            views = engine.views(after, RECIPIENTS)
            decoded = [game_pb2.View.FromString(data) for data in codec.views_to_bytes(views)]
            assert decoded == [codec.view_to_proto(view) for view in views]
            assert [codec.view_from_proto(message) for message in decoded] == views


def test_a_spit_view_shows_tops_and_counts_of_every_pile() -> None:
    state = spit.new_match(spit.Options(), 9)
    wire = spit_codec.view_to_proto(spit.view(state, None)).spit
    assert wire.gate == game_pb2.GATE_START
    assert list(wire.must_press) == [0, 1]
    assert wire.winner == -1
    for seat, side in enumerate(wire.sides):
        engine_side = state.sides[seat]
        assert side.spit_count == len(engine_side.spit)
        for pile, engine_pile in zip(side.stock, engine_side.stock, strict=True):
            assert pile.HasField("top") == bool(engine_pile)
            if engine_pile:
                assert pile.top.text == str(engine_pile[-1])
                assert pile.top.rank == engine_pile[-1].rank.value
            assert pile.hidden == max(len(engine_pile) - 1, 0)


def test_a_steps_views_built_together_are_each_as_built_alone() -> None:
    # engine.views shares what every recipient sees; each view is still its seat's own.
    for engine in (bid, spit):
        state = engine.new_match(engine.Options(), 5)
        for move in walk(engine, state, random.Random(3), 150):
            together = engine.views(move.step.state, RECIPIENTS)
            assert together == [engine.view(move.step.state, seat) for seat in RECIPIENTS]
