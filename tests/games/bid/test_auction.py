"""The auction for the opening after a round someone went out of (rules §6)."""

from __future__ import annotations

import pytest

from games.bid import (
    Accept,
    Bid,
    BidAccepted,
    PassBid,
    Phase,
    State,
    apply,
    legal_commands,
)
from games.decision import Outcome, Termination
from games.errors import Reason, Refused
from tests.games.bid.position import S0, S1, cmd, position, run


def _auction(balances: tuple[int, int] = (150, 150), jockey: int = 1) -> State:
    # Seat ``jockey`` went out of the last round; the other seat decides first.
    return position(
        "[1|2] [3|4] [5|6]",
        "[0|1] [2|2] [4|6]",
        boneyard="[0|0] [6|6]",
        phase=Phase.AUCTION,
        jockey=jockey,
        to_act=1 - jockey,
        balances=balances,
    )


def test_passing_lets_the_jockey_open_free() -> None:
    step = apply(_auction(), S0, cmd("pass"))
    assert step.state.balances == (150, 150)
    assert step.state.phase is Phase.PLAY
    assert step.decision.seats == frozenset({S1})
    assert step.decision.fresh


def test_an_accepted_bid_is_paid_by_the_bidder_who_opens() -> None:
    step = apply(run(_auction(), (0, "bid 15")), S1, cmd("accept"))
    assert step.state.balances == (135, 165)
    assert step.events == (BidAccepted(S1, S0, 15, 15),)
    assert step.state.to_act == S0
    assert step.decision.fresh


def test_the_jockeys_accepted_bid_of_20_costs_5_and_the_opponent_receives_5() -> None:
    state = run(_auction(), (0, "bid 15"), (1, "bid 20"))
    step = apply(state, S0, cmd("accept"))
    assert step.state.balances == (155, 145)
    assert step.events == (BidAccepted(S0, S1, 20, 5),)
    assert step.state.to_act == S1
    assert step.state.phase is Phase.PLAY


def test_the_discount_never_makes_a_payment_negative_nor_pays_out() -> None:
    state = _auction(jockey=1)
    from games.bid.auction import net_payment

    assert net_payment(state, S1, 20) == 5
    assert net_payment(state, S1, 15) == 0
    assert net_payment(state, S0, 20) == 20


def test_every_auction_step_is_a_fresh_decision_for_the_seat_to_act() -> None:
    state = _auction()
    for seat, text in [(0, "bid 15"), (1, "bid 20"), (0, "bid 30")]:
        step = apply(state, seat, cmd(text))  # type: ignore[arg-type]
        assert step.decision.seats == frozenset({1 - seat})
        assert step.decision.fresh
        state = step.state


@pytest.mark.parametrize(
    ("moves", "text", "reason"),
    [
        ([], "bid 10", Reason.BID_TOO_LOW),
        ([], "bid 17", Reason.BID_NOT_MULTIPLE_OF_5),
        ([], "bid 0", Reason.BID_TOO_LOW),
        ([], "accept", Reason.NOTHING_TO_ACCEPT),
        ([(0, "bid 15")], "bid 15", Reason.BID_TOO_LOW),
        ([(0, "bid 15")], "bid 18", Reason.BID_NOT_MULTIPLE_OF_5),
        ([(0, "bid 15")], "pass", Reason.WRONG_PHASE),
        ([(0, "bid 15"), (1, "bid 25")], "bid 25", Reason.BID_TOO_LOW),
    ],
)
def test_bids_start_at_15_and_raise_by_multiples_of_5(
    moves: list[tuple[int, str]], text: str, reason: Reason
) -> None:
    state = run(_auction(), *moves)
    with pytest.raises(Refused) as err:
        apply(state, state.to_act, cmd(text))
    assert err.value.reason is reason


def test_a_raise_by_more_than_5_is_allowed_in_multiples_of_5() -> None:
    state = run(_auction(), (0, "bid 15"), (1, "bid 35"), (0, "bid 40"))
    assert (state.bid, state.bidder) == (40, S0)


def test_playing_during_the_auction_is_the_wrong_phase() -> None:
    with pytest.raises(Refused) as err:
        apply(_auction(), S0, cmd("play [1|2]"))
    assert err.value.reason is Reason.WRONG_PHASE


def test_legal_bids_are_each_amount_the_bidder_can_afford() -> None:
    state = _auction(balances=(40, 260))
    assert list(legal_commands(state, S0)) == [
        PassBid(),
        Bid(15),
        Bid(20),
        Bid(25),
        Bid(30),
        Bid(35),
        Bid(40),
        cmd("resign"),
    ]
    # The jockey's budget stretches by the discount: net 5 and 10 with a balance of 10.
    facing = run(_auction(balances=(290, 10)), (0, "bid 15"))
    assert list(legal_commands(facing, S1)) == [Accept(), Bid(20), Bid(25), cmd("resign")]


def test_a_bid_costing_more_than_the_balance_is_refused() -> None:
    state = _auction(balances=(40, 260))
    with pytest.raises(Refused) as err:
        apply(state, S0, cmd("bid 45"))
    assert err.value.reason is Reason.CANNOT_AFFORD


def test_a_non_jockey_who_cannot_afford_the_minimum_must_pass() -> None:
    state = _auction(balances=(10, 290))
    assert list(legal_commands(state, S0)) == [PassBid(), cmd("resign")]
    with pytest.raises(Refused) as err:
        apply(state, S0, cmd("bid 15"))
    assert err.value.reason is Reason.CANNOT_AFFORD


def test_facing_a_bid_with_no_affordable_raise_the_seat_can_only_accept() -> None:
    state = run(_auction(balances=(200, 100), jockey=1), (0, "bid 150"))
    # Raising to 155 would cost the jockey 140 of their 100.
    assert list(legal_commands(state, S1)) == [Accept(), cmd("resign")]


def test_paying_the_whole_balance_loses_at_once_before_the_opening() -> None:
    state = run(_auction(balances=(15, 285)), (0, "bid 15"))
    step = apply(state, S1, cmd("accept"))
    assert step.state.balances == (0, 300)
    assert step.state.outcome == Outcome(S1, Termination.CHIPS)
    assert step.state.board.is_empty
    assert step.decision.seats == frozenset()


def test_a_jockey_can_pay_exactly_their_balance_and_then_loses() -> None:
    state = run(_auction(balances=(295, 5), jockey=1), (0, "bid 15"), (1, "bid 20"))
    step = apply(state, S0, cmd("accept"))
    assert step.state.balances == (300, 0)
    assert step.state.outcome == Outcome(S0, Termination.CHIPS)


def test_only_the_seat_to_act_may_bid() -> None:
    with pytest.raises(Refused) as err:
        apply(_auction(), S1, cmd("bid 20"))
    assert err.value.reason is Reason.NOT_YOUR_DECISION
