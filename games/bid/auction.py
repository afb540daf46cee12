"""The auction for the opening after a round someone went out of (rules §6).

Decisions (the rules', and the project's where they are silent):

- The non-jockey decides first: ``pass`` (the jockey opens free, with any tile) or a bid
  of at least 15. Then the other seat accepts or raises by at least 5, back and forth;
  every bid is a multiple of 5. ``pass`` is only that first decision.
- Each auction step is a fresh decision for the seat to act (raising switches the clock);
  accepting or passing starts the opener's fresh opening turn.
- The accepted bidder pays the opponent the net payment and opens with any tile. The net
  payment is the bid, or for the jockey's own bid max(0, bid − 15); the discount is never
  paid out. A bid whose net payment exceeds the bidder's balance is refused
  (CANNOT_AFFORD); a balance exactly equal to it can pay, and paying one's whole balance
  loses at once, before the opening (Termination.CHIPS).
- So a non-jockey who cannot afford 15 can only pass, and a seat facing a bid with no
  affordable raise can only accept: ``legal_bids`` is then empty.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.bid.chips import transfer
from games.bid.events import AuctionPassed, BidAccepted, BidMade, Event
from games.bid.model import Phase, State
from games.bid.rounds import end_match
from games.decision import Termination
from games.errors import Reason, Refused
from games.seats import Seat, other


def net_payment(state: State, bidder: Seat, amount: int) -> int:
    """Return what ``bidder`` pays if ``amount`` is accepted (the jockey's discount off)."""
    if bidder == state.jockey:
        return max(0, amount - state.options.jockey_discount)
    return amount


def min_bid(state: State) -> int:
    """Return the lowest bid allowed now: the opening minimum, or the standing bid + 5."""
    if state.bidder is None:
        return state.options.min_bid
    return state.bid + state.options.bid_step


def max_bid(state: State, seat: Seat) -> int:
    """Return the highest bid ``seat`` could pay for (a multiple of 5)."""
    step = state.options.bid_step
    budget = state.balances[seat]
    if seat == state.jockey:
        budget += state.options.jockey_discount
    return budget // step * step


def legal_bids(state: State, seat: Seat) -> range:
    """Return every amount ``seat`` may bid now, lowest first (empty when none)."""
    return range(min_bid(state), max_bid(state, seat) + 1, state.options.bid_step)


def check_bid(state: State, seat: Seat, amount: int) -> None:
    """Return None when ``seat`` may bid ``amount``.

    Raises:
        Refused: BID_NOT_MULTIPLE_OF_5, BID_TOO_LOW or CANNOT_AFFORD.
    """
    if amount % state.options.bid_step:
        raise Refused(Reason.BID_NOT_MULTIPLE_OF_5, f"bid {amount} is not a multiple of 5")
    lowest = min_bid(state)
    if amount < lowest:
        raise Refused(Reason.BID_TOO_LOW, f"bid {amount} is below the minimum {lowest}")
    cost = net_payment(state, seat, amount)
    if cost > state.balances[seat]:
        raise Refused(
            Reason.CANNOT_AFFORD,
            f"bid {amount} costs {cost}, more than your {state.balances[seat]}",
        )


def check_pass(state: State) -> None:
    """Return None when the auction may still be passed.

    Raises:
        Refused: WRONG_PHASE once a bid stands (accept or raise it instead).
    """
    if state.bidder is not None:
        raise Refused(Reason.WRONG_PHASE, f"a bid of {state.bid} stands: accept or raise it")


def check_accept(state: State) -> None:
    """Return None when there is a bid to accept.

    Raises:
        Refused: NOTHING_TO_ACCEPT before the first bid.
    """
    if state.bidder is None:
        raise Refused(Reason.NOTHING_TO_ACCEPT, "no bid has been made: pass or bid")


def pass_auction(state: State, seat: Seat, events: list[Event]) -> State:
    """Return the opening turn of the jockey, who opens free with any tile."""
    events.append(AuctionPassed(seat))
    assert state.jockey is not None
    return replace(state, version=state.version + 1, phase=Phase.PLAY, to_act=state.jockey)


def bid(state: State, seat: Seat, amount: int, events: list[Event]) -> State:
    """Return the auction with ``seat``'s bid standing and the opponent to decide."""
    events.append(BidMade(seat, amount))
    return replace(state, version=state.version + 1, bid=amount, bidder=seat, to_act=other(seat))


def accept(state: State, seat: Seat, events: list[Event]) -> State:
    """Return the bidder's opening turn after paying, or the end if that broke them."""
    bidder = state.bidder
    assert bidder is not None
    balances, paid = transfer(state.balances, bidder, net_payment(state, bidder, state.bid))
    events.append(BidAccepted(seat, bidder, state.bid, paid))
    state = replace(
        state,
        version=state.version + 1,
        balances=balances,
        phase=Phase.PLAY,
        to_act=bidder,
        bid=0,
        bidder=None,
    )
    if balances[bidder] == 0:
        # Rules §6: paying one's whole balance loses at once, before the opening.
        return end_match(state, seat, Termination.CHIPS, events)
    return state
