"""Rounds: the shuffle and deal, who opens, and the settlement when a round ends.

Decisions (rules §2, §4, and the project's own where the rules are silent):

- Every round reshuffles all 28 tiles with ``random.Random(f"{seed}/{round_no}")``, a
  local generator derived from the match seed, so each round's deal is reproducible on
  its own. Seat 0 gets the first 7 tiles, seat 1 the next 7, the boneyard the other 14,
  drawn from its front.
- In round 1 and after a blocked round the opening goes by tile rank: the highest double
  in either hand, else the largest pip total, ties to the higher half. Its holder must
  open with it. After a round someone went out of, the auction decides (``auction``).
- A round that ends is settled at once and the next round is dealt at once; play then
  waits at Gate.CONTINUE until both seats press (match clocks stop there, rules §5).
- A settlement that brings a balance to 0 ends the match (Termination.CHIPS) instead.
"""

from __future__ import annotations

import random

from msgspec.structs import replace

from games.bid.board import Board
from games.bid.chips import Balances, block_award, broke, transfer
from games.bid.events import Dealt, Event, MatchEnded, RoundEnded
from games.bid.model import (
    Options,
    Phase,
    Settlement,
    SettlementKind,
    State,
)
from games.bid.tiles import FULL_SET, Tile, opening_rank
from games.decision import Gate, Outcome, Termination
from games.seats import Seat, other


def shuffled(seed: int, round_no: int) -> list[Tile]:
    """Return the full set in the order round ``round_no`` of match ``seed`` deals it."""
    tiles = list(FULL_SET)
    random.Random(f"{seed}/{round_no}").shuffle(tiles)
    return tiles


def rank_opener(hands: tuple[tuple[Tile, ...], tuple[Tile, ...]]) -> tuple[Seat, Tile]:
    """Return who must open by tile rank, and with which tile (rules §2)."""
    best = {seat: max(hands[seat], key=opening_rank) for seat in (Seat(0), Seat(1))}
    seat = max(best, key=lambda s: opening_rank(best[s]))
    return seat, best[seat]


def deal_round(
    options: Options,
    seed: int,
    round_no: int,
    balances: Balances,
    jockey: Seat | None,
    gate: Gate,
    settlement: Settlement | None = None,
    version: int = 0,
) -> State:
    """Return round ``round_no`` freshly dealt, waiting at ``gate``.

    With a jockey the round starts with the auction, the non-jockey deciding first;
    without one the rank opener starts with an obligatory opening tile.
    """
    tiles = shuffled(seed, round_no)
    size = options.hand_size
    hands = (tuple(tiles[:size]), tuple(tiles[size : 2 * size]))
    must_open_with: Tile | None = None
    if jockey is None:
        to_act, must_open_with = rank_opener(hands)
        phase = Phase.PLAY
    else:
        to_act, phase = other(jockey), Phase.AUCTION
    return State(
        options=options,
        seed=seed,
        version=version,
        round_no=round_no,
        balances=balances,
        hands=hands,
        boneyard=tuple(tiles[2 * size :]),
        board=Board(),
        phase=phase,
        to_act=to_act,
        gate=gate,
        jockey=jockey,
        must_open_with=must_open_with,
        last_settlement=settlement,
    )


def end_match(state: State, winner: Seat, termination: Termination, events: list[Event]) -> State:
    """Return ``state`` finished with ``winner``; appends the MatchEnded event."""
    outcome = Outcome(winner, termination)
    events.append(MatchEnded(outcome))
    return replace(state, outcome=outcome, gate=None, pressed=(), drawn=None)


def settle_went_out(state: State, seat: Seat, events: list[Event]) -> State:
    """Return the next round after ``seat`` played their last tile (rules §4).

    The last tile has already scored; there is no bonus. ``seat`` becomes the jockey.
    """
    settlement = Settlement(state.round_no, SettlementKind.WENT_OUT, seat)
    return _next_round(state, state.balances, seat, settlement, events)


def settle_blocked(state: State, events: list[Event]) -> State:
    """Return the next round (or the end) after both seats passed (rules §4).

    The lighter hand receives the heavier total rounded to the nearest 5, capped by the
    payer's balance; only the totals are revealed. The opening returns to tile rank.
    """
    pips = (sum(t.pips for t in state.hands[0]), sum(t.pips for t in state.hands[1]))
    winner, award = block_award(pips)
    balances, moved = state.balances, 0
    if winner is not None:
        balances, moved = transfer(balances, other(winner), award)
    settlement = Settlement(state.round_no, SettlementKind.BLOCKED, winner, pips, moved)
    return _next_round(state, balances, None, settlement, events)


def _next_round(
    state: State,
    balances: Balances,
    jockey: Seat | None,
    settlement: Settlement,
    events: list[Event],
) -> State:
    events.append(RoundEnded(settlement))
    loser = broke(balances)
    if loser is not None:
        ended = replace(state, balances=balances, last_settlement=settlement)
        return end_match(ended, other(loser), Termination.CHIPS, events)
    dealt = deal_round(
        state.options,
        state.seed,
        state.round_no + 1,
        balances,
        jockey,
        Gate.CONTINUE,
        settlement,
        state.version,
    )
    events.append(Dealt(dealt.round_no, len(dealt.boneyard), state.options.hand_size, dealt.hands))
    return dealt
