"""What both games' boards share: the header, names, clocks, whose decision, races, the end."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from clients.cli.clocks import SeatTime, format_ms, seat_times
from clients.cli.names import shown_name
from games import registry
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2

Update = arbitration_pb2.MatchUpdate

_TERMINATIONS = {
    game_pb2.TERMINATION_CHIPS: "a balance reached 0",
    game_pb2.TERMINATION_CARDS: "no cards left",
    game_pb2.TERMINATION_TIME: "on time",
    game_pb2.TERMINATION_RESIGN: "by resignation",
    game_pb2.TERMINATION_ABANDONED: "the opponent left",
}
_GATES = {
    game_pb2.GATE_START: "start",
    game_pb2.GATE_CONTINUE: "continue",
    game_pb2.GATE_SPIT: "spit due",
    game_pb2.GATE_PAUSED: "paused",
    game_pb2.GATE_HANDOVER: "hand-over",
}


WIDTH = 100
_INDENT = " " * 9


def wrap(line: str) -> list[str]:
    """Return a long board line folded under its label, never breaking a tile or a card."""
    return textwrap.wrap(
        line, WIDTH, subsequent_indent=_INDENT, break_long_words=False, break_on_hyphens=False
    ) or [line]


def listing(title: str, items: Sequence[str], separator: str) -> str:
    """Return ``items`` after a label, folded between items so none is split across lines."""
    lines = [f"{title:<8} "]
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
        return shown_name(f"seat {seat}", yours=yours)
    return shown_name(player.name, guest=player.guest, bot=player.bot, yours=yours)


def label(update: Update, seat: int, viewer: int) -> str:
    """Return a seat's name: "(you)" marks the viewer's, "(guest)" another who is a guest."""
    if not 0 <= seat <= 1:
        return "nobody"
    return _name(update, seat, yours=seat == viewer)


def header(update: Update, round_no: int) -> str:
    """Return the board's first line: the game, the round and who plays whom."""
    first, second = names(update)
    game = registry.by_number(update.game)
    title = "match" if game is None else game.title
    rated = "rated" if update.rated else "casual"
    return f"══ {title} · round {round_no} · {first} vs {second} · {rated} · #{update.seq} ══"


def clock_line(update: Update, times: Sequence[SeatTime] | None = None) -> str | None:
    """Return both clocks (None for a game without one); ◀ marks the running clock."""
    if not update.clock.enabled:
        return None
    shown = seat_times(update.clock) if times is None else times
    parts = []
    for seat, time in enumerate(shown):
        mark = " ◀" if update.clock.running == seat else ""
        grace, bank = format_ms(time.grace_ms), format_ms(time.bank_ms)
        parts.append(f"{names(update)[seat]} grace {grace} bank {bank}{mark}")
    return "clock    " + "   ".join(parts)


def decision_line(update: Update, viewer: int) -> str | None:
    """Return whose decision it is now, or which gate play waits at and for whom.

    None once the match is over (the ending says how).
    """
    decision = update.decision
    who = ", ".join(label(update, seat, viewer) for seat in decision.seats) or "nobody"
    if update.status != arbitration_pb2.STATUS_LIVE:
        return None
    if decision.gate in (game_pb2.GATE_START, game_pb2.GATE_CONTINUE):
        return f"gate     {_GATES[decision.gate]}: waiting for {who} to press ready"
    if decision.gate != game_pb2.GATE_NONE:
        return f"gate     {_GATES.get(decision.gate, 'gate')} ({who})"
    return f"to move  {who}"


def race_line(update: Update, viewer: int) -> str | None:
    """Return a notice of a lost or won race for a pile, from the server's two stamps."""
    if not update.HasField("race"):
        return None
    race = update.race
    gap = f"{race.gap_us / 1000:.3f} ms"
    pile = f"pile {race.pile + 1}"  # counted from 1, as the page does
    if race.refused_seat == viewer:
        return f"race     your {race.refused_card} lost {pile} to {race.landed_card} by {gap}"
    if race.landed_seat == viewer:
        return f"race     your {race.landed_card} beat {race.refused_card} on {pile} by {gap}"
    landed, refused = (
        label(update, race.landed_seat, viewer),
        label(update, race.refused_seat, viewer),
    )
    return (
        f"race     {landed}'s {race.landed_card} beat {refused}'s {race.refused_card}"
        f" on {pile} by {gap}"
    )


def away_line(update: Update, viewer: int) -> str | None:
    """Return a notice of an opponent who left, and what a claim would do."""
    if update.status != arbitration_pb2.STATUS_LIVE or not update.away_seats:
        return None
    gone = ", ".join(label(update, seat, viewer) for seat in update.away_seats)
    if viewer in update.away_seats or viewer < 0:
        return f"away     {gone}: no move and no connection for a while"
    claim = (
        "claim to abort the match (no result, no rating)"
        if update.claim_aborts
        else "claim to win the match"
    )
    return f"away     {gone} left: {claim}, or wait for them"


def ending_lines(update: Update, viewer: int) -> list[str]:
    """Return how the match ended (outcome, or why it was voided); empty while it is live."""
    if update.status == arbitration_pb2.STATUS_VOIDED:
        reason = update.void_reason or "no reason given"
        return [f"MATCH VOIDED: {reason}. No result, no rating change."]
    if update.status != arbitration_pb2.STATUS_FINISHED:
        return []
    outcome = update.outcome
    how = _TERMINATIONS.get(outcome.termination, "")
    winner = label(update, outcome.winner, viewer)
    verdict = "You win" if outcome.winner == viewer else f"{winner} wins"
    return [f"MATCH OVER: {verdict}" + (f" ({how})." if how else ".")]
