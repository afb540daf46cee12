"""Who opens a round, and with what (rules §2, §6)."""

from __future__ import annotations

import pytest

from games.bid import (
    Options,
    Phase,
    Play,
    Tile,
    apply,
    legal_commands,
    new_match,
    parse_tile,
)
from games.bid.rounds import rank_opener, shuffled
from games.bid.tiles import opening_rank
from games.errors import Reason, Refused
from games.seats import Seat
from tests.games.bid.position import S0, S1, cmd, position, run, tiles


def _started(seed: int) -> tuple[Seat, Tile]:
    state = run(new_match(Options(), seed), (0, "ready"), (1, "ready"))
    assert state.must_open_with is not None
    return state.to_act, state.must_open_with


@pytest.mark.parametrize("seed", range(20))
def test_the_holder_of_the_highest_double_must_open_with_it(seed: int) -> None:
    state = new_match(Options(), seed)
    best = max(state.hands[0] + state.hands[1], key=opening_rank)
    holder = Seat(0) if best in state.hands[0] else Seat(1)
    assert _started(seed) == (holder, best)


def test_without_any_double_the_largest_pip_total_opens() -> None:
    # [2|6] and [3|5] both total 8; the higher half 6 decides.
    hands = (tiles("[0|1] [2|6] [3|5] [1|2]"), tiles("[3|4] [0|3] [1|6]"))
    assert rank_opener(hands) == (S0, parse_tile("[2|6]"))


def test_a_pip_total_tie_goes_to_the_higher_half() -> None:
    hands = (tiles("[4|5] [0|1]"), tiles("[3|6] [1|2]"))
    assert rank_opener(hands) == (S1, parse_tile("[3|6]"))


def test_a_dealt_round_without_doubles_opens_with_the_largest_tile() -> None:
    seed = next(s for s in range(20_000) if not any(t.is_double for t in shuffled(s, 1)[:14]))
    state = new_match(Options(), seed)
    both = state.hands[0] + state.hands[1]
    best = max(both, key=lambda t: (t.pips, t.high))
    assert not best.is_double
    assert state.must_open_with == best


def test_the_opener_by_rank_may_only_play_that_tile() -> None:
    state = position("[6|6] [1|2]", "[3|3]", boneyard="[0|0]", must_open_with="[6|6]")
    assert [str(c) for c in legal_commands(state, S0)] == ["play [6|6]", "resign"]
    with pytest.raises(Refused) as err:
        apply(state, S0, cmd("play [1|2]"))
    assert err.value.reason is Reason.MUST_OPEN_WITH


def test_the_opening_tile_scores_like_any_play() -> None:
    state = position("[5|5] [1|2]", "[3|3]", boneyard="[0|0]")
    assert apply(state, S0, cmd("play [5|5]")).state.balances == (160, 140)
    state = position("[2|3] [1|2]", "[3|3]", boneyard="[0|0]")
    assert apply(state, S0, cmd("play [2|3]")).state.balances == (155, 145)
    state = position("[2|2] [1|2]", "[3|3]", boneyard="[0|0]")
    assert apply(state, S0, cmd("play [2|2]")).state.balances == (150, 150)


def test_opening_with_an_end_named_is_refused() -> None:
    state = position("[2|3] [1|2]", "[3|3]", boneyard="[0|0]")
    with pytest.raises(Refused) as err:
        apply(state, S0, cmd("play [2|3] [1|2]:low"))
    assert err.value.reason is Reason.NO_SUCH_END


def test_after_a_round_someone_went_out_of_the_auction_decides() -> None:
    state = position("[1|3]", "[5|6] [0|6]", boneyard="[0|0]", board=["[3|4]"])
    after = apply(state, S0, cmd("play [1|3] [3|4]:low")).state
    assert after.jockey == S0
    assert after.phase is Phase.AUCTION
    assert after.to_act == S1
    assert after.must_open_with is None


def test_the_jockey_opens_with_any_tile_after_a_pass() -> None:
    state = position(
        "[1|2] [3|4] [5|6]", "[0|1]", boneyard="[0|0]", phase=Phase.AUCTION, jockey=0, to_act=1
    )
    state = run(state, (1, "pass"))
    plays = [c for c in legal_commands(state, S0) if isinstance(c, Play)]
    assert [str(p) for p in plays] == ["play [1|2]", "play [3|4]", "play [5|6]"]
    assert apply(state, S0, cmd("play [3|4]")).state.board.total == 7
