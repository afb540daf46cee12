"""Views and event copies show each recipient only what they may see."""

from __future__ import annotations

from msgspec.structs import fields

from games.bid import (
    AuctionView,
    Drew,
    OpenPoint,
    Options,
    Phase,
    apply,
    events_for,
    new_match,
    parse_tile,
    view,
)
from games.bid.board import parse_end
from tests.games.bid.position import S0, S1, cmd, position, run, tiles


def test_a_seat_sees_its_own_hand_and_only_the_count_of_the_other() -> None:
    state = new_match(Options(), 9)
    mine = view(state, S0)
    assert set(mine.hand) == set(state.hands[0])
    assert mine.hand_counts == (7, 7)
    assert mine.boneyard_count == 14
    assert not set(mine.hand) & set(state.hands[1])


def test_a_spectator_sees_no_hand_at_all() -> None:
    assert view(new_match(Options(), 9), None).hand == ()


def test_the_board_open_points_and_counted_ends_are_public() -> None:
    state = position("[0|2]", "[2|2]", boneyard="[6|6]", board=["[1|4]", "[1|1] [1|4]:low"])
    seen = view(state, None)
    assert seen.open_points == (
        OpenPoint(parse_end("[1|1]:straight-b"), 1),
        OpenPoint(parse_end("[1|4]:high"), 4),
    )
    assert [(str(c.tile), c.points) for c in seen.counted] == [("[1|1]", 2), ("[1|4]", 4)]
    assert seen.end_sum == 6
    assert seen.board.spinner == parse_tile("[1|1]")


def test_the_tile_to_play_after_a_draw_is_shown_only_to_its_holder() -> None:
    state = position("[0|2]", "[5|6]", boneyard="[0|3] [4|5] [6|6]", board=["[1|4]"])
    step = apply(state, S0, cmd("draw"))
    assert view(step.state, S0).must_play == parse_tile("[4|5]")
    assert view(step.state, S1).must_play is None
    assert view(step.state, None).must_play is None
    assert [str(c) for c in view(step.state, S0).legal] == ["play [4|5] [1|4]:high"]
    assert view(step.state, S1).legal == ()


def test_drawn_tiles_are_redacted_from_everyone_else_s_events() -> None:
    state = position("[0|2]", "[5|6]", boneyard="[0|3] [4|5] [6|6]", board=["[1|4]"])
    events = apply(state, S0, cmd("draw")).events
    assert events_for(events, S0) == (Drew(S0, 2, tiles("[0|3] [4|5]")),)
    assert events_for(events, S1) == (Drew(S0, 2),)
    assert events_for(events, None) == (Drew(S0, 2),)


def test_the_obligatory_opening_tile_is_shown_only_to_its_holder() -> None:
    state = position("[6|6] [1|2]", "[3|3]", boneyard="[0|0]", must_open_with="[6|6]")
    assert view(state, S0).must_open_with == parse_tile("[6|6]")
    assert view(state, S1).must_open_with is None


def test_the_auction_view_shows_the_bid_and_its_cost_after_the_discount() -> None:
    state = position("[1|2]", "[3|4]", boneyard="[5|5]", phase=Phase.AUCTION, jockey=1)
    state = run(state, (0, "bid 15"), (1, "bid 25"))
    assert view(state, None).auction == AuctionView(25, S1, 10, 30, 15)
    assert view(state, S0).decide == (S0,)
    assert view(state, S0).jockey == S1


def test_a_blocked_settlement_reveals_pip_totals_not_tiles() -> None:
    state = position("[0|5] [2|2]", "[3|5] [5|5]", board=["[5|6]"])
    after = apply(state, S0, cmd("play [0|5] [5|6]:low")).state
    seen = view(after, S0)
    assert seen.last_settlement is not None and seen.last_settlement.pips == (4, 18)
    # The settlement names no tile: only who, how, the totals and the transfer.
    assert [f.name for f in fields(seen.last_settlement)] == [
        "round_no",
        "kind",
        "seat",
        "pips",
        "transfer",
    ]
