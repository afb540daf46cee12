"""What both games' boards share: the header, names, clocks, whose decision, races, the end."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from clients.cli.choices import game_name
from clients.cli.clocks import SeatTime, format_ms, seat_times
from clients.cli.names import seat_name, shown_name
from clients.cli.words import has, pad, t
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2

Update = arbitration_pb2.MatchUpdate

_TERMINATIONS = {
    game_pb2.TERMINATION_CHIPS: "end.how.chips",
    game_pb2.TERMINATION_CARDS: "end.how.cards",
    game_pb2.TERMINATION_TIME: "end.how.time",
    game_pb2.TERMINATION_RESIGN: "end.how.resign",
    game_pb2.TERMINATION_ABANDONED: "end.how.abandoned",
}
_GATES = {
    game_pb2.GATE_START: "cli.gate.start",
    game_pb2.GATE_CONTINUE: "cli.gate.continue",
    game_pb2.GATE_SPIT: "cli.gate.spit",
    game_pb2.GATE_PAUSED: "cli.gate.paused",
    game_pb2.GATE_HANDOVER: "cli.gate.handover",
}


WIDTH = 100
LABEL_WIDTH = 8  # a board line's label column, in terminal columns
_INDENT = " " * (LABEL_WIDTH + 1)


def labelled(label: str, text: str) -> str:
    """A board line: the label ``cli.label.<label>`` in its column, then ``text``."""
    return f"{pad(t(f'cli.label.{label}'), LABEL_WIDTH)} {text}"


def wrap(line: str) -> list[str]:
    """Return a long board line folded under its label, never breaking a tile or a card."""
    return textwrap.wrap(
        line, WIDTH, subsequent_indent=_INDENT, break_long_words=False, break_on_hyphens=False
    ) or [line]


def listing(title: str, items: Sequence[str], separator: str) -> str:
    """Return ``items`` after a label, folded between items so none is split across lines."""
    lines = [f"{pad(title, LABEL_WIDTH)} "]
    for index, item in enumerate(items):
        piece = item if index == 0 else separator + item
        if index and len(lines[-1]) + len(piece) > WIDTH:
            lines[-1] += separator.rstrip()
            lines.append(_INDENT + item)
        else:
            lines[-1] += piece
    return "\n".join(lines)


def names(update: Update) -> tuple[str, str]:
    """Return the two players' names by seat, guests marked ("seat N" when the update
    names nobody)."""
    return _name(update, 0), _name(update, 1)


def _name(update: Update, seat: int, yours: bool = False) -> str:
    players = update.players
    named = seat < len(players) and players[seat].name
    player = players[seat] if named else None
    if player is None:
        return seat_name(seat, yours=yours)
    return shown_name(player.name, guest=player.guest, bot=player.bot, yours=yours)


def label(update: Update, seat: int, viewer: int) -> str:
    """Return a seat's name: "(you)" marks the viewer's, "(guest)" another who is a guest."""
    if not 0 <= seat <= 1:
        return t("cli.nobody")
    return _name(update, seat, yours=seat == viewer)


def header(update: Update, round_no: int) -> str:
    """Return the board's first line: the game, the round and who plays whom."""
    first, second = names(update)
    title = game_name(update.game)
    rated = t("terms.rated" if update.rated else "terms.casual")
    versus = t("names.versus", first=first, second=second)
    return t(
        "cli.header", game=title, round=round_no, versus=versus, terms=rated, seq=str(update.seq)
    )


def clock_line(update: Update, times: Sequence[SeatTime] | None = None) -> str | None:
    """Return both clocks (None for a game without one); ◀ marks the running clock."""
    if not update.clock.enabled:
        return None
    shown = seat_times(update.clock) if times is None else times
    parts = []
    for seat, time in enumerate(shown):
        mark = " ◀" if update.clock.running == seat else ""
        grace, bank = format_ms(time.grace_ms), format_ms(time.bank_ms)
        parts.append(t("cli.clock", name=names(update)[seat], grace=grace, bank=bank) + mark)
    return labelled("clock", "   ".join(parts))


def decision_line(update: Update, viewer: int) -> str | None:
    """Return whose decision it is now, or which gate play waits at and for whom.

    None once the match is over (the ending says how).
    """
    decision = update.decision
    who = together([label(update, seat, viewer) for seat in decision.seats]) or t("cli.nobody")
    if update.status != arbitration_pb2.STATUS_LIVE:
        return None
    if decision.gate in (game_pb2.GATE_START, game_pb2.GATE_CONTINUE):
        return labelled("gate", t("cli.gate.waiting", gate=t(_GATES[decision.gate]), who=who))
    if decision.gate != game_pb2.GATE_NONE:
        gate = t(_GATES.get(decision.gate, "cli.label.gate"))
        return labelled("gate", t("cli.gate.other", gate=gate, who=who))
    return labelled("to_move", who)


def together(items: Sequence[str]) -> str:
    """Items in one line, with the language's comma."""
    return t("cli.comma").join(items)


def race_line(update: Update, viewer: int) -> str | None:
    """Return a notice of a lost or won race for a pile, from the server's two stamps."""
    if not update.HasField("race"):
        return None
    race = update.race
    gap = t("time.ms", ms=f"{race.gap_us / 1000:.3f}")
    pile = race.pile + 1  # counted from 1, as the page does
    landed, refused = race.landed_card, race.refused_card
    if race.refused_seat == viewer:
        return labelled(
            "race", t("cli.race.lost", refused=refused, landed=landed, pile=pile, gap=gap)
        )
    if race.landed_seat == viewer:
        return labelled(
            "race", t("cli.race.won", landed=landed, refused=refused, pile=pile, gap=gap)
        )
    winner = label(update, race.landed_seat, viewer)
    loser = label(update, race.refused_seat, viewer)
    return labelled(
        "race",
        t(
            "cli.race.theirs",
            winner=winner,
            landed=landed,
            loser=loser,
            refused=refused,
            pile=pile,
            gap=gap,
        ),
    )


def away_line(update: Update, viewer: int) -> str | None:
    """Return a notice of an opponent who left, and what a claim would do."""
    if update.status != arbitration_pb2.STATUS_LIVE or not update.away_seats:
        return None
    gone = together([label(update, seat, viewer) for seat in update.away_seats])
    if viewer in update.away_seats or viewer < 0:
        return labelled("away", t("cli.away.quiet", who=gone))
    key = "cli.away.claim_abort" if update.claim_aborts else "cli.away.claim_win"
    return labelled("away", t(key, who=gone))


def ending_lines(update: Update, viewer: int) -> list[str]:
    """Return how the match ended (outcome, or why it was voided); empty while it is live."""
    if update.status == arbitration_pb2.STATUS_VOIDED:
        return [t("cli.end.voided", reason=void_words(update.void_reason, update.void_kind))]
    if update.status != arbitration_pb2.STATUS_FINISHED:
        return []
    outcome = update.outcome
    how = t(_TERMINATIONS[outcome.termination]) if outcome.termination in _TERMINATIONS else ""
    if outcome.winner == viewer:
        return [t("cli.end.you_win_how" if how else "cli.end.you_win", how=how)]
    winner = label(update, outcome.winner, viewer)
    return [t("cli.end.won_how" if how else "cli.end.won", winner=winner, how=how)]


def void_words(sentence: str, kind: str = "") -> str:
    """Why a match was voided, worded from its kind (or the code its sentence begins with),
    as the page does (clients/web/src/voids.ts); the server's sentence for a kind this client
    does not know."""
    code = kind or (re.match(r"[a-z_]+", sentence) or [""])[0]
    if has(f"void.{code}"):
        return t(f"void.{code}")
    return sentence or t("games.no_reason")
