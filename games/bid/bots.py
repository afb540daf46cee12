"""Computer opponents: a planned command from one seat's view, never from the state.

Levels:

- EASY plays a random legal tile (one time in five the best-scoring one instead); in the
  auction it passes or bids the minimum at random, and facing a bid accepts or raises
  by the minimum at random (never a bid that would cost its whole balance).
- MEDIUM is greedy: the play that scores most now, ties to the heavier tile. It passes
  the auction and accepts any bid.
- HARD scores each play as its points minus the reply the opponent is expected to score
  from the tiles this seat has not seen (each held with probability hand count / unseen
  count), plus small terms for keeping a flexible hand, getting rid of doubles, and
  dumping heavy tiles when a block is likely (empty boneyard). It takes an immediately
  winning score, and goes out when it can. In the auction it rates its hand (opening
  score available, doubles, tiles that fit each other) and bids only with a strong hand
  and a comfortable balance; as jockey it accepts any bid, since a raise costs the bid
  less 10 and the opening is worth at most about 10 (rules §6 arithmetic).

Think times (ms), sampled uniformly from ``rng``, all well inside the 10 s grace:
gates 300–900; a forced choice (one legal command) 400–900; otherwise EASY 1500–4000,
MEDIUM 1000–2500, HARD 600–1500.
"""

from __future__ import annotations

import random

from games.bid.board import (
    Board,
    exposed,
    place,
    points_for,
    total_after,
    total_covering,
)
from games.bid.commands import Accept, Bid, Command, Draw, PassBid, Play, Ready
from games.bid.tiles import FULL_SET, Tile
from games.bid.view import View
from games.bot import Level, Plan
from games.seats import Seat, other

_THINK_MS = {
    Level.EASY: (1500, 4000),
    Level.MEDIUM: (1000, 2500),
    Level.HARD: (600, 1500),
}
_GATE_MS = (300, 900)
_FORCED_MS = (400, 900)


def plan(view: View, seat: Seat, level: Level, rng: random.Random) -> Plan[Command] | None:
    """Return ``seat``'s next command with a think time, or None when it is not theirs.

    ``view`` must be ``seat``'s own view.
    """
    legal = view.legal
    if view.seat != seat or not legal:
        return None
    if len(legal) == 1:
        timing = _GATE_MS if isinstance(legal[0], Ready) else _FORCED_MS
        return Plan(legal[0], rng.randint(*timing))
    if view.auction is not None:
        command = _auction(view, seat, level, rng)
    else:
        command = _play(view, seat, level, rng)
    return Plan(command, rng.randint(*_THINK_MS[level]))


def _play(view: View, seat: Seat, level: Level, rng: random.Random) -> Command:
    plays = [c for c in view.legal if isinstance(c, Play)]
    if not plays:
        return Draw()
    if level is Level.EASY and rng.random() < 0.8:
        return rng.choice(plays)
    cap = view.balances[other(seat)]
    if level is Level.HARD:
        unseen = _unseen(view)
        table = _reply_table(unseen)
        return max(plays, key=lambda p: (_hard_value(view, seat, p, unseen, table), rng.random()))
    return max(plays, key=lambda p: (_points(view.board, p, cap), p.tile.pips, rng.random()))


def _points(board: Board, play: Play, cap: int) -> int:
    return min(cap, points_for(total_after(board, play.tile, play.end)))


def _hard_value(
    view: View, seat: Seat, play: Play, unseen: list[Tile], table: _ReplyTable
) -> float:
    cap = view.balances[other(seat)]
    mine = _points(view.board, play, cap)
    if mine >= cap:
        return 1000.0  # the opponent's balance reaches 0: the match is won
    rest = [t for t in view.hand if t != play.tile]
    if not rest:
        return mine + 15.0  # going out ends the round and makes this seat the jockey
    board = place(view.board, play.tile, play.end)
    held = view.hand_counts[other(seat)] / max(1, len(unseen))
    reply = _expected_best_reply(board, table, len(unseen), held, view.balances[seat])
    values = {end.value for end in board.ends}
    fitting = sum(1 for t in rest if t.low in values or t.high in values)
    suits = len({v for t in rest for v in (t.low, t.high)})
    heavy = 0.5 if view.boneyard_count == 0 else 0.1
    double = 2.0 if play.tile.is_double else 0.0
    return mine - 0.9 * reply + 0.8 * fitting + 0.3 * suits + heavy * play.tile.pips + double


def _unseen(view: View) -> list[Tile]:
    seen = set(view.hand) | {p.tile for p in view.board.placements}
    return [t for t in FULL_SET if t not in seen]


# For each end value, the unseen tiles (by index) that can join it and what they would
# then count; computed once per decision, reused for every candidate play.
_ReplyTable = dict[int, list[tuple[int, int]]]


def _reply_table(unseen: list[Tile]) -> _ReplyTable:
    table: _ReplyTable = {value: [] for value in range(7)}
    for i, tile in enumerate(unseen):
        table[tile.low].append((i, exposed(tile, tile.low)))
        if not tile.is_double:
            table[tile.high].append((i, exposed(tile, tile.high)))
    return table


def _expected_best_reply(
    board: Board, table: _ReplyTable, unseen_count: int, held: float, cap: int
) -> float:
    """Return the expected best score the opponent makes next, tile by tile."""
    scores = [0] * unseen_count
    for end in board.ends:
        base = total_covering(board, end)
        for i, counted in table[end.value]:
            total = base + counted
            if total > scores[i] and total % 5 == 0:
                scores[i] = total
    best = sorted((min(cap, s) for s in scores if s), reverse=True)
    expected, missing = 0.0, 1.0
    for score in best:
        # The opponent's best reply is this tile's when they hold it and no better one.
        expected += score * held * missing
        missing *= 1.0 - held
    return expected


def _auction(view: View, seat: Seat, level: Level, rng: random.Random) -> Command:
    auction = view.auction
    assert auction is not None
    bids = [c for c in view.legal if isinstance(c, Bid)]
    balance = view.balances[seat]
    discount = auction.discount if seat == view.jockey else 0
    # Never a bid that would cost the whole balance: paying it loses at once (rules §6).
    affordable = [b for b in bids if max(0, b.amount - discount) < balance]
    declining: Command = Accept() if auction.bidder is not None else PassBid()
    if level is Level.EASY:
        if affordable and rng.random() < 0.5:
            return affordable[0]
        return declining
    strong = level is Level.HARD and _strength(view.hand) >= 6
    if strong and auction.bidder is None and affordable and balance >= 4 * affordable[0].amount:
        return affordable[0]
    return declining


def _strength(hand: tuple[Tile, ...]) -> int:
    """Return a rough opening strength: an opening score, doubles, and connected tiles."""
    opening = max(points_for(t.pips) for t in hand)
    doubles = sum(1 for t in hand if t.is_double)
    values = [v for t in hand for v in (t.low, t.high)]
    connected = max(values.count(v) for v in range(7))
    return opening // 5 * 2 + doubles + max(0, connected - 2)
