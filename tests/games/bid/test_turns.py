"""Playing, drawing, forced passes, going out and blocked rounds (rules §3, §4)."""

from __future__ import annotations

import pytest

from games.bid import (
    Draw,
    Drew,
    Passed,
    Phase,
    RoundEnded,
    Settlement,
    SettlementKind,
    State,
    apply,
    decision,
    legal_commands,
    parse_tile,
)
from games.decision import Gate, Outcome, Termination
from games.errors import Reason, Refused
from tests.games.bid.position import S0, S1, cmd, position, tiles

# Open values 1 and 4 after [1|4] opened.
OPEN_14 = ["[1|4]"]


def test_the_turn_passes_after_a_score() -> None:
    state = position("[1|4] [0|2]", "[6|6] [0|0]", boneyard="[3|3]", board=["[1|6]"])
    step = apply(state, S0, cmd("play [1|4] [1|6]:low"))
    assert step.state.board.total == 4 + 6
    assert step.state.balances == (160, 140)
    assert step.decision.seats == frozenset({S1})
    assert step.decision.fresh


def test_the_turn_passes_after_a_double() -> None:
    state = position("[1|1] [0|2]", "[6|6] [0|0]", boneyard="[3|3]", board=["[1|6]"])
    step = apply(state, S0, cmd("play [1|1] [1|6]:low"))
    assert step.state.board.spinner == parse_tile("[1|1]")
    assert step.decision.seats == frozenset({S1})
    assert step.decision.fresh


def test_drawing_when_a_tile_in_hand_can_be_played_is_refused() -> None:
    state = position("[4|6] [0|2]", "[1|6]", boneyard="[3|3]", board=OPEN_14)
    with pytest.raises(Refused) as err:
        apply(state, S0, cmd("draw"))
    assert err.value.reason is Reason.CAN_PLAY


def test_draw_takes_tiles_one_by_one_until_a_playable_one_in_one_request() -> None:
    state = position("[0|2] [3|6]", "[1|6]", boneyard="[0|3] [2|5] [4|5] [6|6]", board=OPEN_14)
    assert list(legal_commands(state, S0)) == [Draw(), cmd("resign")]
    step = apply(state, S0, cmd("draw"))
    assert step.events == (Drew(S0, 3, tiles("[0|3] [2|5] [4|5]")),)
    assert step.state.hands[0] == tiles("[0|2] [3|6] [0|3] [2|5] [4|5]")
    assert step.state.boneyard == tiles("[6|6]")
    assert step.state.drawn == parse_tile("[4|5]")


def test_after_a_draw_the_same_seat_plays_on_without_a_fresh_decision() -> None:
    state = position("[0|2]", "[1|6]", boneyard="[0|3] [4|5] [6|6]", board=OPEN_14)
    step = apply(state, S0, cmd("draw"))
    assert step.decision.seats == frozenset({S0})
    assert not step.decision.fresh
    assert [str(c) for c in legal_commands(step.state, S0)] == [
        "play [4|5] [1|4]:high",
        "resign",
    ]


def test_drawn_playable_tile_must_be_played() -> None:
    state = position("[0|2] [3|6]", "[1|6]", boneyard="[0|3] [4|5] [6|6]", board=OPEN_14)
    state = apply(state, S0, cmd("draw")).state
    for text in ("play [0|3] [1|4]:high", "play [3|6] [1|4]:low", "draw"):
        with pytest.raises(Refused) as err:
            apply(state, S0, cmd(text))
        assert err.value.reason is Reason.MUST_PLAY_DRAWN
    after = apply(state, S0, cmd("play [4|5] [1|4]:high")).state
    assert after.drawn is None
    assert after.to_act == S1


def test_a_draw_that_empties_the_boneyard_without_a_playable_tile_passes() -> None:
    state = position("[0|2]", "[1|6] [4|6]", boneyard="[0|3] [2|5]", board=OPEN_14)
    step = apply(state, S0, cmd("draw"))
    assert step.events == (Drew(S0, 2, tiles("[0|3] [2|5]")), Passed(S0))
    assert step.state.to_act == S1
    assert step.decision.fresh


def test_a_forced_pass_is_made_automatically_when_the_opponent_cannot_play() -> None:
    state = position("[4|6] [1|6]", "[0|2] [3|3]", board=OPEN_14)
    step = apply(state, S0, cmd("play [4|6] [1|4]:high"))
    assert step.events[-1] == Passed(S1)
    assert step.state.to_act == S0
    assert step.decision == decision(step.state)
    assert step.decision.seats == frozenset({S0})
    assert step.decision.fresh


def _blocked(
    hand0: str,
    hand1: str,
    jockey: int | None = None,
    balances: tuple[int, int] = (150, 150),
) -> tuple[RoundEnded, State]:
    # Seat 0 turns the open 5|6 into 0|6 (sum 6, no score); neither hand holds a 0 or a
    # 6 and the boneyard is empty, so both seats are passed and the round is blocked.
    state = position("[0|5] " + hand0, hand1, board=["[5|6]"], jockey=jockey, balances=balances)
    step = apply(state, S0, cmd("play [0|5] [5|6]:low"))
    assert step.events[1:3] == (Passed(S1), Passed(S0))
    ended = [e for e in step.events if isinstance(e, RoundEnded)]
    assert len(ended) == 1
    return ended[0], step.state


def test_a_blocked_round_pays_the_lighter_hand_the_heavier_total_rounded() -> None:
    ended, after = _blocked("[2|2]", "[3|5] [5|5]")
    assert ended.settlement == Settlement(2, SettlementKind.BLOCKED, S0, (4, 18), 20)
    assert after.balances == (170, 130)


def test_a_block_against_17_pays_15() -> None:
    ended, after = _blocked("[1|1]", "[2|5] [5|5]")
    assert ended.settlement == Settlement(2, SettlementKind.BLOCKED, S0, (2, 17), 15)
    assert after.balances == (165, 135)


def test_a_blocked_tie_pays_nothing() -> None:
    ended, after = _blocked("[3|3]", "[2|4]")
    assert ended.settlement == Settlement(2, SettlementKind.BLOCKED, None, (6, 6), 0)
    assert after.balances == (150, 150)


def test_a_block_award_that_empties_the_payers_balance_ends_the_match() -> None:
    ended, after = _blocked("[2|2]", "[3|5] [5|5]", balances=(280, 20))
    assert ended.settlement.transfer == 20
    assert after.balances == (300, 0)
    assert after.outcome == Outcome(S0, Termination.CHIPS)
    assert after.gate is None


def test_a_block_award_is_capped_by_the_payers_balance() -> None:
    ended, after = _blocked("[2|2]", "[3|5] [5|5]", balances=(290, 10))
    assert ended.settlement.transfer == 10
    assert after.outcome == Outcome(S0, Termination.CHIPS)


def test_a_blocked_round_deals_the_next_round_with_a_rank_opening_and_no_jockey() -> None:
    _, after = _blocked("[2|2]", "[3|5] [5|5]", jockey=1)
    assert after.round_no == 3
    assert after.gate is Gate.CONTINUE
    assert after.jockey is None
    assert after.phase is Phase.PLAY
    assert after.must_open_with is not None
    assert after.last_settlement is not None and after.last_settlement.pips == (4, 18)
    assert len(after.hands[0]) == len(after.hands[1]) == 7
    assert len(after.boneyard) == 14


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("play [2|3] [1|4]:high", Reason.TILE_NOT_IN_HAND),
        ("play [0|2] [1|4]:high", Reason.DOES_NOT_MATCH),
        ("play [4|6] [0|0]:straight-b", Reason.NO_SUCH_END),
        ("play [4|6] [2|4]:high", Reason.NO_SUCH_END),
        ("play [4|6]", Reason.NO_SUCH_END),
        ("ready", Reason.NOT_AT_GATE),
        ("bid 15", Reason.WRONG_PHASE),
        ("accept", Reason.WRONG_PHASE),
        ("pass", Reason.WRONG_PHASE),
    ],
)
def test_illegal_plays_are_refused_with_the_reason(text: str, reason: Reason) -> None:
    state = position("[4|6] [0|2]", "[1|6]", boneyard="[3|3]", board=OPEN_14)
    with pytest.raises(Refused) as err:
        apply(state, S0, cmd(text))
    assert err.value.reason is reason


def test_playing_out_of_turn_is_not_your_decision() -> None:
    state = position("[4|6] [0|2]", "[1|6]", boneyard="[3|3]", board=OPEN_14)
    with pytest.raises(Refused) as err:
        apply(state, S1, cmd("play [1|6] [1|4]:low"))
    assert err.value.reason is Reason.NOT_YOUR_DECISION
