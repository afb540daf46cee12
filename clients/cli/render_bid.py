"""A Spectacular Bid board as text, from one seat's MatchUpdate.

Only what the update carries is shown, and a seat's view carries only that seat's hand.
On a shared device the hand (and the legal plays, which name its tiles) is left out
whenever the device may be in the wrong hands: ``show_hand=False``.
"""

from __future__ import annotations

from collections.abc import Sequence

from clients.cli.clocks import SeatTime
from clients.cli.render_common import (
    Update,
    away_line,
    clock_line,
    decision_line,
    ending_lines,
    header,
    label,
    listing,
    race_line,
    wrap,
)
from games.bid import Bid, Options
from games.bid.codec import command_from_proto
from photofinish.game.v1 import bid_pb2, game_pb2

JOCKEY_DISCOUNT = Options().jockey_discount


def render_bid(
    update: Update,
    show_hand: bool = True,
    times: Sequence[SeatTime] | None = None,
    viewer: int | None = None,
) -> str:
    """Return the board of ``update`` (a Bid match) as lines of text.

    ``viewer`` is the seat marked "(you)" (default: the view's own; -1 nobody); the
    view's hand, drawn tiles and legal plays appear only with ``show_hand``.
    """
    view = update.view.bid
    me = view.seat if viewer is None else viewer
    lines = [header(update, view.round_no), _chips(update, view, me)]
    clock = clock_line(update, times)
    lines += [clock] if clock else []
    lines += [*_board(view), _counts(update, view, me)]
    lines += _auction(update, view, me)
    lines += [f"last     {text}" for text in event_lines(update, me, show_hand)]
    if view.HasField("last_settlement"):
        lines.append(f"settled  {settlement_text(update, view.last_settlement, me)}")
    if show_hand and view.seat >= 0:
        lines += _hand(view)
    elif view.seat >= 0:
        lines.append("hand     hidden (shared device)")
    decision = decision_line(update, me)
    lines += [decision] if decision else []
    race = race_line(update, me)
    lines += [race] if race else []
    away = away_line(update, me)
    lines += [away] if away else []
    lines += ending_lines(update, me)
    return "\n".join(line if "\n" in line else "\n".join(wrap(line)) for line in lines)


def _chips(update: Update, view: bid_pb2.BidView, me: int) -> str:
    balances = " · ".join(
        f"{label(update, seat, me)} {chips}" for seat, chips in enumerate(view.balances)
    )
    jockey = label(update, view.jockey, me) if view.jockey >= 0 else "none yet"
    return f"chips    {balances}   jockey: {jockey}"


def _board(view: bid_pb2.BidView) -> list[str]:
    board = view.board
    if not board.placements:
        return ["board    (empty)"]
    spinner = board.spinner.text if board.HasField("spinner") else ""
    placed = []
    for placement in board.placements:
        mark = "*" if placement.tile.text == spinner else ""
        where = f" on {placement.on.text}" if placement.HasField("on") else " (opened)"
        placed.append(f"{placement.tile.text}{mark}{where}")
    lines = [listing("board", placed, " · ")]
    if spinner:
        state = "open" if board.branches_open else "closed (both main arms first)"
        lines.append(f"spinner  {spinner}*  branches {state}")
    points = "  ".join(f"{point.end.text}={point.value}" for point in view.open_points)
    lines.append(f"open     {points or '(none)'}")
    counted = " + ".join(f"{c.tile.text} {c.points}" for c in view.counted)
    lines.append(f"end sum  {view.end_sum}" + (f" = {counted}" if counted else ""))
    return lines


def _counts(update: Update, view: bid_pb2.BidView, me: int) -> str:
    hands = " · ".join(
        f"{label(update, seat, me)} {count}" for seat, count in enumerate(view.hand_counts)
    )
    return f"tiles    {hands} · boneyard {view.boneyard_count}"


def _auction(update: Update, view: bid_pb2.BidView, me: int) -> list[str]:
    if not view.HasField("auction"):
        return []
    auction = view.auction
    least = f"least bid now {auction.min_bid}"
    jockey = label(update, view.jockey, me)
    if auction.bidder < 0:
        return [
            f"auction  no bid yet · {least} · jockey {jockey} gets {JOCKEY_DISCOUNT} off"
            " their own winning bid"
        ]
    bidder = label(update, auction.bidder, me)
    discount = auction.bid - auction.cost
    off = f" (jockey discount {discount})" if discount else ""
    return [f"auction  {bidder} bids {auction.bid}, would pay {auction.cost}{off} · {least}"]


def _hand(view: bid_pb2.BidView) -> list[str]:
    tiles = " ".join(tile.text for tile in view.hand) or "(empty)"
    lines = [f"hand     {tiles}"]
    if view.HasField("must_play"):
        lines.append(f"must     play {view.must_play.text} (the tile you drew)")
    if view.HasField("must_open_with"):
        lines.append(f"must     open with {view.must_open_with.text}")
    if view.legal:
        lines.append(listing("legal", [*legal_texts(view.legal), "resign"], " | "))
    return lines


def legal_texts(legal: Sequence[bid_pb2.BidCommand]) -> list[str]:
    """Return the legal commands as typed, a run of bids shortened to ``bid 15..150``."""
    texts: list[str] = []
    amounts: list[int] = []
    for command in legal:
        engine_command = command_from_proto(game_pb2.Command(bid=command))
        if isinstance(engine_command, Bid):
            amounts.append(engine_command.amount)
        else:
            texts.append(str(engine_command))
    if len(amounts) == 1:
        texts.append(f"bid {amounts[0]}")
    elif amounts:
        texts.append(f"bid {min(amounts)}..{max(amounts)} (steps of 5)")
    return texts


def settlement_text(update: Update, settlement: bid_pb2.BidSettlement, me: int) -> str:
    """Return how a round ended, as everyone may see it (``me`` is marked "(you)")."""
    who = label(update, settlement.seat, me)
    head = f"round {settlement.round_no}: "
    if settlement.kind == bid_pb2.SETTLEMENT_KIND_WENT_OUT:
        moved = f", {settlement.transfer} points to them" if settlement.transfer else ""
        return head + f"{who} went out{moved}"
    pips = "–".join(str(p) for p in settlement.pips)
    if settlement.seat < 0:
        return head + f"blocked, equal hand totals {pips}: nothing moves"
    return head + f"blocked, hand totals {pips}: {who} receives {settlement.transfer}"


def event_lines(update: Update, me: int, show_drawn: bool = True) -> list[str]:
    """Return what the step behind ``update`` did, one line per event worth telling.

    Drawn tiles are named only with ``show_drawn`` (they are in the drawer's own copy).
    """
    lines = []
    for event in update.events:
        text = _event_text(update, event.bid, me, show_drawn) if event.HasField("bid") else None
        if text:
            lines.append(text)
    return lines


def _event_text(update: Update, event: bid_pb2.BidEvent, me: int, show_drawn: bool) -> str | None:
    kind = event.WhichOneof("kind")
    if kind == "played":
        played = event.played
        where = f"at {played.end.text}" if played.HasField("end") else "to open"
        scored = f", scored {played.points}" if played.points else ", no score"
        who = label(update, played.seat, me)
        return f"{who} played {played.tile.text} {where}: end sum {played.total}{scored}"
    if kind == "drew":
        drew = event.drew
        tiles = " ".join(tile.text for tile in drew.tiles) if show_drawn else ""
        return f"{label(update, drew.seat, me)} drew {drew.count}" + (f": {tiles}" if tiles else "")
    if kind == "passed":
        forced = " (could neither play nor draw)" if event.passed.forced else ""
        return f"{label(update, event.passed.seat, me)} passed{forced}"
    if kind == "auction_passed":
        return f"{label(update, event.auction_passed.seat, me)} passed: the jockey opens free"
    if kind == "bid_made":
        return f"{label(update, event.bid_made.seat, me)} bid {event.bid_made.amount}"
    if kind == "bid_accepted":
        accepted = event.bid_accepted
        bidder = label(update, accepted.bidder, me)
        return (
            f"{label(update, accepted.seat, me)} accepted {accepted.amount}:"
            f" {bidder} paid {accepted.paid} and opens"
        )
    if kind == "dealt":
        return f"round {event.dealt.round_no} dealt, boneyard {event.dealt.boneyard_count}"
    return None
