"""The gates of a Spit match: Ready before a round, the Spit when blocked, the ⏸ pause.

Project decisions:

- Gate.START (first round) and Gate.CONTINUE (later rounds): both seats must press Ready;
  a second press by the same seat is refused. When the second seat presses, the round's
  first spit happens at once (rules §3.1).
- Gate.SPIT: nobody can go on (rules §3.4). Either seat may send Spit (the arbitration
  sends one itself after a short visible pause). A Spit sent when play is not blocked is
  refused with ``not_blocked`` — so of two Spits sent for the same blockage, the second is
  refused, unless the first left the table blocked again; a Spit that names its number
  (``spit N``) is refused in that case too, so one blockage never costs two spits.
- Pausing (rules §7) only in matches against the computer (``Options.pausable``); pausing
  between two people is not allowed (``not_pausable``). Pausing and resuming take effect
  at once, at any point of an unfinished match; either seat may resume. While paused every
  command but Resume and Resign is refused with ``paused``: resigning needs no resume.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.errors import Reason, Refused
from games.seats import Seat
from games.spit.commands import Pause, Ready, Resume, Spit
from games.spit.events import Blocked, Event, PausedBy, Pressed, ResumedBy
from games.spit.model import Phase, State
from games.spit.moves import can_go_on
from games.spit.spitting import spit

READY_PHASES = (Phase.START, Phase.CONTINUE)


def press_ready(state: State, seat: Seat, command: Ready) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` presses Ready; the second press spits.

    Raises:
        Refused: NOT_AT_GATE or ALREADY_PRESSED.
    """
    if state.phase not in READY_PHASES:
        raise Refused(Reason.NOT_AT_GATE, f"{command}: the round is already under way")
    if seat in state.pressed:
        raise Refused(Reason.ALREADY_PRESSED, f"{command}: seat {seat} has already pressed")
    pressed = state.pressed | {seat}
    events: list[Event] = [Pressed(seat=seat)]
    if len(pressed) < 2:
        return replace(state, pressed=pressed), events
    return _spat(replace(state, pressed=frozenset()), events)


def send_spit(state: State, seat: Seat, command: Spit) -> tuple[State, list[Event]]:
    """Return the state after a spit at Gate.SPIT.

    Raises:
        Refused: AT_GATE before the round has begun; NOT_BLOCKED when someone can go on
        or when the named spit has already happened.
    """
    if state.phase in READY_PHASES:
        raise Refused(Reason.AT_GATE, f"{command}: waiting for both to press Ready")
    if state.phase is not Phase.BLOCKED:
        raise Refused(Reason.NOT_BLOCKED, f"{command}: a player can still go on")
    if command.number is not None and command.number != state.spits + 1:
        raise Refused(Reason.NOT_BLOCKED, f"{command}: the next spit is number {state.spits + 1}")
    return _spat(state, [])


def _spat(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Return ``state`` after a spit, at Gate.SPIT again if still nobody can go on."""
    state, spat = spit(state)
    events += spat
    if can_go_on(state.sides, state.centre):
        return replace(state, phase=Phase.PLAY), events
    return replace(state, phase=Phase.BLOCKED), [*events, Blocked()]


def pause(state: State, seat: Seat, command: Pause) -> tuple[State, list[Event]]:
    """Return the paused state.

    Raises:
        Refused: NOT_PAUSABLE between two people; PAUSED when already paused.
    """
    if not state.options.pausable:
        raise Refused(Reason.NOT_PAUSABLE, f"{command}: only a match against the computer pauses")
    if state.paused:
        raise Refused(Reason.PAUSED, f"{command}: the match is already paused")
    return replace(state, paused=True), [PausedBy(seat=seat)]


def resume(state: State, seat: Seat, command: Resume) -> tuple[State, list[Event]]:
    """Return the resumed state.

    Raises:
        Refused: NOT_PAUSABLE between two people; NOT_PAUSED when not paused.
    """
    if not state.options.pausable:
        raise Refused(Reason.NOT_PAUSABLE, f"{command}: only a match against the computer pauses")
    if not state.paused:
        raise Refused(Reason.NOT_PAUSED, f"{command}: the match is not paused")
    return replace(state, paused=False), [ResumedBy(seat=seat)]
