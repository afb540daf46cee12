"""What a player or spectator may see of a Spit match, and which events they may hear.

Face-up cards are public: each seat's stock tops and the centre tops. Face-down cards —
stock cards beneath a top, every spit pile — are hidden from **everyone**, their owner
included, so they appear only as counts. The centre cards below a top were public when
played, but only the top and the pile's size are shown.

Since nothing is known to one seat and not the other, a seat's view differs from the
spectator's only in ``seat`` (whose view it is), and ``events_for`` passes every event on:
events never name a face-down card (see ``events``).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from msgspec.structs import replace

from games.decision import Gate, Outcome
from games.seats import SEATS, Seat
from games.spit.cards import Card
from games.spit.events import Event
from games.spit.gates import READY_PHASES
from games.spit.model import Pile, Side, State
from games.spit.rules import decision


class StockView(msgspec.Struct, frozen=True):
    """One stock pile as anyone sees it: the face-up top, and how many lie face down."""

    top: Card | None
    hidden: int


class SideView(msgspec.Struct, frozen=True):
    """One seat's cards as anyone sees them."""

    stock: tuple[StockView, ...]
    spit_count: int


class CentreView(msgspec.Struct, frozen=True):
    """One centre pile: its top card, if any, and how many cards it holds."""

    top: Card | None
    size: int


class View(msgspec.Struct, frozen=True):
    """A Spit match as ``seat`` sees it (None: a spectator). ``sides`` are by seat number.

    ``must_press`` holds the seats still to press Ready at Gate.START / Gate.CONTINUE;
    ``spits`` is how many spits the match has had (the next ``spit N`` is ``spits + 1``).
    """

    seat: Seat | None
    version: int
    round_no: int
    pausable: bool
    sides: tuple[SideView, SideView]
    centre: tuple[CentreView, CentreView]
    gate: Gate | None
    paused: bool
    must_press: frozenset[Seat]
    spits: int
    outcome: Outcome | None


class Told(msgspec.Struct, frozen=True):
    """What a view shows that its step's events do not tell: the state's version (a step
    may take several: a nudge presses Ready for both), the gate, and who still has to press
    Ready (a pause hides the gate, not the presses). The same for every seat in Spit."""

    version: int
    gate: Gate | None
    must_press: frozenset[Seat]


def told(state: State, seat: Seat | None) -> Told:
    """Return what ``seat``'s view of ``state`` shows beyond its step's events."""
    must_press = frozenset(SEATS) - state.pressed if state.phase in READY_PHASES else frozenset()
    return Told(state.version, decision(state).gate, must_press)


def tolds(state: State, seats: Sequence[Seat | None]) -> list[Told]:
    """Return ``told(state, seat)`` for each of ``seats``, built once."""
    return [told(state, None)] * len(seats)


def view(state: State, seat: Seat | None) -> View:
    """Return what ``seat`` (or a spectator, for None) may see of ``state``."""
    now = told(state, seat)
    return View(
        seat=seat,
        version=now.version,
        round_no=state.round_no,
        pausable=state.options.pausable,
        sides=(_side_view(state.sides[0]), _side_view(state.sides[1])),
        centre=(_centre_view(state.centre[0]), _centre_view(state.centre[1])),
        gate=now.gate,
        paused=state.paused,
        must_press=now.must_press,
        spits=state.spits,
        outcome=state.outcome,
    )


def views(state: State, seats: Sequence[Seat | None]) -> list[View]:
    """Return ``view(state, seat)`` for each of ``seats``, built once: in Spit a view shows
    nothing its seat alone may see (face-down cards are counts, for their owner too)."""
    shown = view(state, seats[0])
    return [shown if seat == shown.seat else _seen_by(shown, seat) for seat in seats]


def _seen_by(shown: View, seat: Seat | None) -> View:
    """Return ``shown`` as ``seat``'s view."""
    return replace(shown, seat=seat)


def events_for(events: tuple[Event, ...], seat: Seat | None) -> tuple[Event, ...]:
    """Return the events ``seat`` (or a spectator) may hear: all of them, in Spit."""
    return events


def _side_view(side: Side) -> SideView:
    return SideView(
        stock=tuple(
            StockView(top=pile[-1] if pile else None, hidden=max(len(pile) - 1, 0))
            for pile in side.stock
        ),
        spit_count=len(side.spit),
    )


def _centre_view(pile: Pile) -> CentreView:
    return CentreView(top=pile[-1] if pile else None, size=len(pile))
