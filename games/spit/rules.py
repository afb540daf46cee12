"""The Spit engine's entry points: apply a command, list legal ones, who decides, the end.

Commands are applied one at a time in the order the caller gives — the arbitration
orders them by arrival at the server (rules §6: the card that arrived first counts). Each
``apply`` does a bounded amount of work (at most one spit and one reshuffle or one deal),
so no sequence of spits and deals can loop inside it; every further spit is a new command.

Decisions: during play both seats may act (no gate, ``fresh`` false: Spit has no turns
and no move clock). At Gate.START / Gate.CONTINUE the seats are those still to press
Ready; at Gate.SPIT both (either may send Spit); while paused Gate.PAUSED with both (either
may resume). Once the match is over nobody decides and every command is refused with
``match_over``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from msgspec.structs import replace

from games.decision import Decision, Gate, Outcome, Step, Termination
from games.errors import Malformed, Reason, Refused
from games.seats import SEATS, Seat, other, parse_seat
from games.spit.commands import (
    Command,
    Move,
    Pause,
    Play,
    Ready,
    Resign,
    Resume,
    Spit,
    check_command,
)
from games.spit.events import Event
from games.spit.gates import pause, press_ready, resume, send_spit
from games.spit.model import Phase, State
from games.spit.moves import plays, uncovering_moves
from games.spit.round import finish
from games.spit.table import move, play

_BOTH = frozenset(SEATS)
_NOBODY: frozenset[Seat] = frozenset()
_PLAYING = Decision(seats=_BOTH, fresh=False)
_OVER = Decision(seats=_NOBODY, fresh=False)
_BLOCKED = Decision(seats=_BOTH, fresh=False, gate=Gate.SPIT)
_PAUSED = Decision(seats=_BOTH, fresh=False, gate=Gate.PAUSED)
_READY_GATES = {Phase.START: Gate.START, Phase.CONTINUE: Gate.CONTINUE}

Handler = Callable[[State, Seat, Any], tuple[State, list[Event]]]
_HANDLERS: dict[type, Handler] = {
    Play: play,
    Move: move,
    Ready: press_ready,
    Spit: send_spit,
    Pause: pause,
    Resume: resume,
}


def apply(state: State, seat: Seat, command: Command) -> Step[State, Event]:
    """Return the step ``seat``'s ``command`` makes from ``state``; ``state`` is untouched.

    Raises:
        Malformed: NO_SUCH_SEAT, UNKNOWN_COMMAND, BAD_ARGUMENT or NO_SUCH_PILE.
        Refused: MATCH_OVER, PAUSED, AT_GATE, or the command's own reason.
    """
    seat = parse_seat(seat)
    check_command(command)
    if state.outcome is not None:
        raise Refused(Reason.MATCH_OVER, f"{command}: the match is over")
    if isinstance(command, Resign):
        return forfeit(state, seat, Termination.RESIGN)
    if state.paused and not isinstance(command, Resume):
        raise Refused(Reason.PAUSED, f"{command}: the match is paused")
    if state.phase in _READY_GATES and isinstance(command, Play | Move):
        raise Refused(Reason.AT_GATE, f"{command}: waiting for both to press Ready")
    if state.phase is Phase.BLOCKED and isinstance(command, Play | Move):
        raise Refused(Reason.AT_GATE, f"{command}: nobody can go on; waiting for the spit")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise Malformed(Reason.UNKNOWN_COMMAND, f"{command!r} is not a Spit command")
    new, events = handler(state, seat, command)
    new = _versioned(new, state.version + 1)
    return Step(state=new, events=tuple(events), decision=decision(new))


def forfeit(state: State, loser: Seat, termination: Termination) -> Step[State, Event]:
    """Return the step that ends the match with ``loser`` losing by ``termination``.

    Raises:
        Refused: MATCH_OVER when the match has already ended.
    """
    loser = parse_seat(loser)
    if state.outcome is not None:
        raise Refused(Reason.MATCH_OVER, f"seat {loser} cannot lose a finished match")
    new, events = finish(state, Outcome(winner=other(loser), termination=termination))
    new = _versioned(new, state.version + 1)
    return Step(state=new, events=tuple(events), decision=decision(new))


def decision(state: State) -> Decision:
    """Return who may act in ``state`` and at which gate, if any."""
    if state.outcome is not None:
        return _OVER
    if state.paused:
        return _PAUSED
    gate = _READY_GATES.get(state.phase)
    if gate is not None:
        return Decision(seats=_BOTH - state.pressed, fresh=False, gate=gate)
    return _BLOCKED if state.phase is Phase.BLOCKED else _PLAYING


def outcome(state: State) -> Outcome | None:
    """Return how the match ended, or None while it goes on."""
    return state.outcome


def legal_commands(state: State, seat: Seat) -> Iterator[Command]:
    """Yield every command ``seat`` may send now (plays name the top they go onto)."""
    if state.outcome is not None:
        return
    if state.paused:
        yield Resume()
        yield Resign()
        return
    if state.phase in _READY_GATES and seat not in state.pressed:
        yield Ready()
    elif state.phase is Phase.BLOCKED:
        yield Spit()
    elif state.phase is Phase.PLAY:
        side = state.sides[seat]
        for stock, pile in plays(side, state.centre):
            yield Play(stock=stock, pile=pile, onto=state.centre[pile][-1].rank)
        for src, dst in uncovering_moves(side):
            yield Move(src=src, dst=dst)
    if state.options.pausable:
        yield Pause()
    yield Resign()


def _versioned(state: State, version: int) -> State:
    return replace(state, version=version)
