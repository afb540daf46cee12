"""A Spit board as text, from one seat's MatchUpdate.

Face-down cards are counts for everyone, owner included, so nothing here is secret; the
viewer's side is listed first. Hints list the plays and moves the board allows now (the
server still decides: the other player may get there first).
"""

from __future__ import annotations

from clients.cli.render_common import (
    Update,
    away_line,
    decision_line,
    ending_lines,
    header,
    label,
    labelled,
    race_line,
)
from clients.cli.words import pad, t
from games.spit import Rank, is_adjacent
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2, spit_pb2


def render_spit(update: Update, viewer: int | None = None) -> str:
    """Return the board of ``update`` (a Spit match); ``viewer`` -1 labels both sides by name."""
    view = update.view.spit
    me = view.seat if viewer is None else viewer
    lines = [header(update, view.round_no), _centre(view)]
    order = (me, 1 - me) if me in (0, 1) else (0, 1)
    for seat in order:
        if seat < len(view.sides):
            lines.append(_side(update, view.sides[seat], seat, me))
    lines += [labelled("last", text) for text in event_lines(update, me)]
    lines += _gate(update, view, me)
    live = update.status == arbitration_pb2.STATUS_LIVE
    for seat in order if me < 0 else (me,):
        hints = playable(view, seat)
        if hints and update.decision.gate == game_pb2.GATE_NONE and live:
            plays = " | ".join(hints)
            if me < 0:
                plays = t("cli.spit.whose", who=label(update, seat, me), plays=plays)
            lines.append(labelled("can", plays))
    race = race_line(update, me)
    lines += [race] if race else []
    away = away_line(update, me)
    lines += [away] if away else []
    lines += ending_lines(update, me)
    return "\n".join(lines)


def _centre(view: spit_pb2.SpitView) -> str:
    piles = []
    for number, pile in enumerate(view.centre):
        top = pile.top.text if pile.HasField("top") else t("cli.spit.empty")
        piles.append(t("cli.spit.centre_pile", pile=number + 1, top=top, count=pile.size))
    return labelled("centre", "   ".join(piles))


def _side(update: Update, side: spit_pb2.SpitSide, seat: int, me: int) -> str:
    piles = []
    for number, pile in enumerate(side.stock):
        top = pile.top.text if pile.HasField("top") else "—"
        hidden = f"+{pile.hidden}" if pile.hidden else ""
        piles.append(f"{number + 1}:{top}{hidden}")
    who = pad(label(update, seat, me), 16)
    spit = t("cli.spit.spit_pile", count=side.spit_count)
    return labelled("stock", f"{who} " + "  ".join(piles) + f"   {spit}")


def _gate(update: Update, view: spit_pb2.SpitView, me: int) -> list[str]:
    if view.paused:
        return [labelled("gate", t("cli.spit.paused"))]
    if view.gate == game_pb2.GATE_SPIT:
        return [labelled("gate", t("cli.spit.spit_due", spit=view.spits + 1))]
    decision = decision_line(update, me)
    return [decision] if decision and update.decision.gate != game_pb2.GATE_NONE else []


def playable(view: spit_pb2.SpitView, seat: int) -> list[str]:
    """Return the commands ``seat``'s stock allows on the board of ``view``."""
    if not 0 <= seat < len(view.sides):
        return []
    stock = view.sides[seat].stock
    hints = []
    for number, pile in enumerate(stock):
        if not pile.HasField("top"):
            continue
        for target, centre in enumerate(view.centre):
            if centre.HasField("top") and is_adjacent(Rank(pile.top.rank), Rank(centre.top.rank)):
                hints.append(f"play {number + 1} {target + 1}")
    empty = [n for n, pile in enumerate(stock) if not pile.HasField("top")]
    covering = [n for n, pile in enumerate(stock) if pile.HasField("top") and pile.hidden]
    if empty and covering:
        hints.append(f"move {covering[0] + 1} {empty[0] + 1}")
    return hints


def event_lines(update: Update, me: int) -> list[str]:
    """Return what the step behind ``update`` did, one line per event worth telling."""
    lines = []
    for event in update.events:
        text = _event_text(update, event.spit, me) if event.HasField("spit") else None
        if text:
            lines.append(text)
    return lines


def _event_text(update: Update, event: spit_pb2.SpitEvent, me: int) -> str | None:
    kind = event.WhichOneof("kind")
    if kind == "played":
        played = event.played
        who = label(update, played.seat, me)
        card, stock, pile = played.card.text, played.stock + 1, played.pile + 1
        return t("cli.spit.played", who=who, card=card, stock=stock, pile=pile)
    if kind == "spat":
        spat = event.spat
        who = label(update, spat.seat, me)
        return t("cli.spit.spat", who=who, card=spat.card.text, pile=spat.pile + 1)
    if kind == "round_ended":
        ended = event.round_ended
        counts = "–".join(str(count) for count in ended.card_counts)
        who = label(update, ended.finisher, me)
        return t(
            "cli.spit.round_ended",
            round=ended.round_no,
            who=who,
            pile=ended.taken + 1,
            counts=counts,
        )
    if kind == "reshuffled":
        return t("cli.spit.reshuffled")
    if kind == "paused":
        return t("cli.spit.paused_by", who=label(update, event.paused.seat, me))
    if kind == "resumed":
        return t("cli.spit.resumed_by", who=label(update, event.resumed.seat, me))
    return None
