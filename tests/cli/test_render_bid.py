"""The Bid board drawn from real engine views: what a seat must see, and never the other hand."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from clients.cli.render_bid import legal_texts, render_bid, settlement_text
from games import bid
from games.bid.codec.commands import bid_command_to_proto
from photofinish.game.v1 import bid_pb2
from tests.cli.positions import NAMES, bid_update, clock, step_once, walk_until

SEEDS = st.integers(min_value=0, max_value=2**32)


def _midgame() -> tuple[bid.State, tuple[object, ...]]:
    start = bid.new_match(bid.Options(), 5)
    return walk_until(bid, start, lambda s: len(s.board.placements) >= 5, seed=1)


def _line(text: str, label: str) -> str:
    """Return the line under ``label``, with its folded continuation lines joined on."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(label))
    end = start + 1
    while end < len(lines) and lines[end].startswith(" "):
        end += 1
    return " ".join(line.strip() for line in lines[start:end])


def _without(text: str, label: str) -> str:
    """Return ``text`` without the lines under ``label`` (folded lines included)."""
    kept, skipping = [], False
    for line in text.splitlines():
        if not line.startswith(" "):
            skipping = line.startswith(label)
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def test_a_seat_sees_its_hand_the_open_point_ids_balances_and_both_clocks() -> None:
    state, events = _midgame()
    seat = next(iter(bid.decision(state).seats))
    times = clock(((7_400, 113_000), (0, 98_999)), running=seat)
    text = render_bid(bid_update(state, seat, events, clock_view=times))
    assert _line(text, "hand").split()[1:] == [str(tile) for tile in sorted(state.hands[seat])]
    for end in state.board.ends:
        assert f"{end}={end.value}" in _line(text, "open")
    assert f"{NAMES[0]}{' (you)' if seat == 0 else ''} {state.balances[0]}" in text
    assert "grace 0:07 bank 1:53" in text and "grace 0:00 bank 1:38" in text
    assert f"end sum  {state.board.total}" in text
    assert _line(text, "to move").endswith("(you)")


def test_the_board_lists_every_tile_in_play_order_with_where_it_joined_and_the_spinner() -> None:
    state, events = _midgame()
    text = render_bid(bid_update(state, 0, events))
    board = " ".join(line.strip() for line in text.split("spinner")[0].split("board", 1)[1:])
    positions = [board.index(str(p.tile)) for p in state.board.placements]
    assert positions == sorted(positions)
    for placement in state.board.placements[1:]:
        mark = "*" if placement.tile == state.board.spinner else ""
        assert f"{placement.tile}{mark} on {placement.on}" in board
    assert state.board.spinner is not None and f"spinner  {state.board.spinner}*" in text


def test_the_deciding_seat_gets_its_legal_commands_as_typed_and_the_other_seat_none() -> None:
    state, events = _midgame()
    (seat,) = bid.decision(state).seats
    mine = render_bid(bid_update(state, seat, events))
    theirs = render_bid(bid_update(state, 1 - seat, events))
    legal = [str(c) for c in bid.legal_commands(state, seat)]
    assert all(text in mine for text in legal if text.startswith("play"))
    assert "legal" in mine and "legal" not in theirs


@settings(max_examples=20)
@given(SEEDS, SEEDS)
def test_a_seat_board_never_names_a_tile_of_the_other_hand_or_the_boneyard(
    seed: int, walk_seed: int
) -> None:
    state = bid.new_match(bid.Options(), seed)
    rng = random.Random(walk_seed)
    for _ in range(120):
        stepped = step_once(bid, state, rng)
        if stepped is None:
            return
        state, events = stepped
        for seat in (0, 1):
            text = render_bid(bid_update(state, seat, events))
            # Event lines may name a tile that was public during the step (played, then
            # re-dealt): only the rest of the board must be free of hidden tiles.
            board = _without(text, "last")
            hidden = set(state.hands[1 - seat]) | set(state.boneyard)
            assert [str(tile) for tile in hidden if str(tile) in board] == []
            assert _line(text, "hand").split()[1:] in (
                [str(tile) for tile in sorted(state.hands[seat])],
                ["(empty)"],
            )


def test_a_board_on_a_shared_device_at_a_gate_shows_no_hand_and_no_legal_plays() -> None:
    state = bid.new_match(bid.Options(), 9)
    text = render_bid(bid_update(state, 0), show_hand=False, viewer=-1)
    assert "hand     hidden (shared device)" in text
    assert "legal" not in text and "(you)" not in text
    assert [str(tile) for tile in state.hands[0] + state.hands[1] if str(tile) in text] == []
    assert "gate     start: waiting for Ada, Bea to press ready" in text


def test_the_auction_shows_the_standing_bid_its_cost_and_the_jockey_discount() -> None:
    start = bid.new_match(bid.Options(), 5)
    state, events = walk_until(
        bid,
        start,
        lambda s: s.phase is bid.Phase.AUCTION and s.bidder is not None and s.bidder == s.jockey,
        seed=2,
        steps=20_000,
    )
    text = render_bid(bid_update(state, 0, events))
    assert state.jockey is not None
    auction = _line(text, "auction")
    discount = bid.Options().jockey_discount
    cost = state.bid - discount
    assert f"bids {state.bid}, would pay {cost} (jockey discount {discount})" in auction
    assert f"jockey: {NAMES[state.jockey]}" in text
    assert "settled  round 1:" in text and "went out" in text


def test_a_run_of_bids_is_listed_as_a_range() -> None:
    legal = [bid_command_to_proto(c) for c in (bid.Accept(), bid.Bid(15), bid.Bid(20), bid.Bid(25))]
    assert legal_texts(legal) == ["accept", "bid 15..25 (steps of 5)"]


def test_a_blocked_round_shows_both_pip_totals_and_what_moved() -> None:
    update = bid_update(bid.new_match(bid.Options(), 1), 0)
    blocked = bid_pb2.BidSettlement(
        round_no=3, kind=bid_pb2.SETTLEMENT_KIND_BLOCKED, seat=0, pips=[4, 18], transfer=20
    )
    assert settlement_text(update, blocked, 0) == (
        "round 3: blocked, hand totals 4–18: Ada (you) receives 20"
    )
    tie = bid_pb2.BidSettlement(
        round_no=2, kind=bid_pb2.SETTLEMENT_KIND_BLOCKED, seat=-1, pips=[6, 6]
    )
    assert "nothing moves" in settlement_text(update, tie, 0)


def test_a_drawn_tile_is_named_to_the_drawer_and_must_be_played() -> None:
    start = bid.new_match(bid.Options(), 3)
    state, events = walk_until(bid, start, lambda s: s.drawn is not None, seed=4, steps=20_000)
    seat = state.to_act
    text = render_bid(bid_update(state, seat, events))
    assert f"must     play {state.drawn} (the tile you drew)" in text
    other = render_bid(bid_update(state, 1 - seat, events))
    assert str(state.drawn) not in other
