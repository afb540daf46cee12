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
    labelled,
    listing,
    race_line,
    wrap,
)
from clients.cli.words import t
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
    lines += [labelled("last", text) for text in event_lines(update, me, show_hand)]
    if view.HasField("last_settlement"):
        lines.append(labelled("settled", settlement_text(update, view.last_settlement, me)))
    if show_hand and view.seat >= 0:
        lines += _hand(view)
    elif view.seat >= 0:
        lines.append(labelled("hand", t("cli.bid.hand_hidden")))
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
    jockey = label(update, view.jockey, me) if view.jockey >= 0 else t("cli.bid.no_jockey")
    return labelled("chips", t("cli.bid.chips", balances=balances, jockey=jockey))


def _board(view: bid_pb2.BidView) -> list[str]:
    board = view.board
    if not board.placements:
        return [labelled("board", t("cli.empty"))]
    spinner = board.spinner.text if board.HasField("spinner") else ""
    placed = []
    for placement in board.placements:
        mark = "*" if placement.tile.text == spinner else ""
        tile = placement.tile.text + mark
        if placement.HasField("on"):
            placed.append(t("cli.bid.placed_on", tile=tile, on=placement.on.text))
        else:
            placed.append(t("cli.bid.placed_opened", tile=tile))
    lines = [listing(t("cli.label.board"), placed, " · ")]
    if spinner:
        state = t("cli.bid.branches_open" if board.branches_open else "cli.bid.branches_closed")
        lines.append(labelled("spinner", f"{spinner}*  {state}"))
    points = "  ".join(f"{point.end.text}={point.value}" for point in view.open_points)
    lines.append(labelled("open", points or t("cli.none")))
    counted = " + ".join(f"{c.tile.text} {c.points}" for c in view.counted)
    lines.append(labelled("end_sum", f"{view.end_sum}" + (f" = {counted}" if counted else "")))
    return lines


def _counts(update: Update, view: bid_pb2.BidView, me: int) -> str:
    hands = " · ".join(
        f"{label(update, seat, me)} {count}" for seat, count in enumerate(view.hand_counts)
    )
    return labelled("tiles", t("cli.bid.tiles", hands=hands, boneyard=view.boneyard_count))


def _auction(update: Update, view: bid_pb2.BidView, me: int) -> list[str]:
    if not view.HasField("auction"):
        return []
    auction = view.auction
    least = t("cli.bid.least", least=auction.min_bid)
    jockey = label(update, view.jockey, me)
    if auction.bidder < 0:
        opening = t("cli.bid.no_bid_yet", least=least, jockey=jockey, discount=JOCKEY_DISCOUNT)
        return [labelled("auction", opening)]
    bidder = label(update, auction.bidder, me)
    discount = auction.bid - auction.cost
    key = "cli.bid.bids_discounted" if discount else "cli.bid.bids"
    bids = t(key, bidder=bidder, bid=auction.bid, cost=auction.cost, discount=discount)
    return [labelled("auction", f"{bids} · {least}")]


def _hand(view: bid_pb2.BidView) -> list[str]:
    tiles = " ".join(tile.text for tile in view.hand) or t("cli.empty")
    lines = [labelled("hand", tiles)]
    if view.HasField("must_play"):
        lines.append(labelled("must", t("cli.bid.must_play", tile=view.must_play.text)))
    if view.HasField("must_open_with"):
        lines.append(labelled("must", t("cli.bid.must_open", tile=view.must_open_with.text)))
    if view.legal:
        legal = [*legal_texts(view.legal), "resign"]
        lines.append(listing(t("cli.label.legal"), legal, " | "))
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
        texts.append(t("cli.bid.bid_range", low=min(amounts), high=max(amounts)))
    return texts


def settlement_text(update: Update, settlement: bid_pb2.BidSettlement, me: int) -> str:
    """Return how a round ended, as everyone may see it (``me`` is marked "(you)")."""
    who = label(update, settlement.seat, me)
    round_no, moved = settlement.round_no, settlement.transfer
    if settlement.kind == bid_pb2.SETTLEMENT_KIND_WENT_OUT:
        key = "cli.bid.went_out_moved" if moved else "cli.bid.went_out"
        return t(key, round=round_no, who=who, points=moved)
    pips = "–".join(str(p) for p in settlement.pips)
    if settlement.seat < 0:
        return t("cli.bid.blocked_equal", round=round_no, pips=pips)
    return t("cli.bid.blocked", round=round_no, pips=pips, who=who, points=moved)


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
        who, tile, total, points = (
            label(update, played.seat, me),
            played.tile.text,
            played.total,
            played.points,
        )
        if played.HasField("end"):
            return t(
                "cli.bid.played_at",
                who=who,
                tile=tile,
                end=played.end.text,
                total=total,
                points=points,
            )
        return t("cli.bid.played_open", who=who, tile=tile, total=total, points=points)
    if kind == "drew":
        drew = event.drew
        tiles = " ".join(tile.text for tile in drew.tiles) if show_drawn else ""
        who = label(update, drew.seat, me)
        if tiles:
            return t("cli.bid.drew_tiles", who=who, count=drew.count, tiles=tiles)
        return t("cli.bid.drew", who=who, count=drew.count)
    if kind == "passed":
        key = "cli.bid.passed_forced" if event.passed.forced else "cli.bid.passed"
        return t(key, who=label(update, event.passed.seat, me))
    if kind == "auction_passed":
        return t("cli.bid.auction_passed", who=label(update, event.auction_passed.seat, me))
    if kind == "bid_made":
        return t(
            "cli.bid.bid_made",
            who=label(update, event.bid_made.seat, me),
            amount=event.bid_made.amount,
        )
    if kind == "bid_accepted":
        accepted = event.bid_accepted
        bidder = label(update, accepted.bidder, me)
        who = label(update, accepted.seat, me)
        return t(
            "cli.bid.accepted", who=who, amount=accepted.amount, bidder=bidder, paid=accepted.paid
        )
    if kind == "dealt":
        return t("cli.bid.dealt", round=event.dealt.round_no, boneyard=event.dealt.boneyard_count)
    return None
