"""Which board a terminal shows: its seat's, or on a shared device the seat whose turn it is.

On a hot-seat device both seats' updates arrive; a hand may be shown only to the seat
whose decision it is, after that person revealed it. A pending hand-over shows a banner
and nothing else; gates and the end show the board with no hand at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from clients.cli.render_common import Update, names
from clients.cli.words import t
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2


@dataclass(frozen=True, slots=True)
class Board:
    """Show ``update``; ``viewer`` is marked "(you)" (-1: nobody), hand only with ``show_hand``."""

    update: Update
    viewer: int
    show_hand: bool


@dataclass(frozen=True, slots=True)
class Handover:
    """The device goes to ``seat``: show a banner until they reveal their hand."""

    seat: int
    name: str
    seq: int


Screen = Board | Handover


def newest(latest: Mapping[int, Update]) -> Update:
    """Return the most recent of the updates (a race notice is newer than its step)."""
    return max(latest.values(), key=lambda update: (update.seq, update.HasField("race")))


def choose(latest: Mapping[int, Update], held: Sequence[int]) -> Screen | None:
    """Return what to show given the latest update of each seat held (None: wait for more)."""
    if not latest:
        return None
    if len(held) == 1:
        seat = held[0]
        return Board(latest[seat], seat, True) if seat in latest else None
    last = newest(latest)
    decision = last.decision
    live = last.status == arbitration_pb2.STATUS_LIVE
    if live and decision.gate == game_pb2.GATE_HANDOVER and decision.seats:
        seat = decision.seats[0]
        return Handover(seat, names(last)[seat], last.seq)
    if last.game == game_pb2.GAME_SPIT:
        return Board(last, -1, True)  # nothing in Spit is one seat's secret
    if live and decision.gate == game_pb2.GATE_NONE and len(decision.seats) == 1:
        seat = decision.seats[0]
        mine = latest.get(seat)
        if mine is None or mine.seq != last.seq:
            return None  # that seat's copy of this step has not arrived yet
        return Board(mine, seat, True)
    return Board(last, -1, False)


def key(screen: Screen) -> tuple[object, ...]:
    """Return what makes two screens the same, so an unchanged one is not drawn twice."""
    if isinstance(screen, Handover):
        return ("handover", screen.seat, screen.seq)
    update = screen.update
    race = update.race.SerializeToString() if update.HasField("race") else b""
    return ("board", screen.viewer, update.seq, race, update.status, screen.show_hand)


def route(
    text: str, seat: int | None, held: Sequence[int], update: Update | None
) -> tuple[int, ...] | str:
    """Return the seats a typed command goes to, or why it cannot be sent.

    One seat held: that seat. On a shared device: the seat named with ``@N``; else
    ``ready`` presses for every seat still to press; else the one seat whose decision it is.
    """
    if seat is not None:
        return (seat,) if seat in held else t("cli.seat.not_held", seat=seat)
    if len(held) == 1:
        return (held[0],)
    if update is None:
        return t("cli.match.no_board")
    deciding = [s for s in update.decision.seats if s in held]
    if text.split()[0].lower() == "ready":
        return tuple(deciding) or t("cli.seat.nobody_ready")
    if len(deciding) == 1:
        return (deciding[0],)
    return t("cli.seat.both")
