"""The engine's surface: start a match, list and apply commands, who decides, the end.

Decisions (the project's, where the rules leave it open):

- ``new_match`` deals round 1 and waits at Gate.START; every later round is dealt as soon
  as the previous one is settled and waits at Gate.CONTINUE. Both seats must press
  ``ready``; Decision.seats lists who still has to, and a second press is refused
  (ALREADY_PRESSED). Gates are not clocked, so their decisions are not fresh.
- After the gate, the opening or auction decision begins (fresh). In play,
  Decision.fresh is false only while a drawn tile waits to be played.
- ``resign`` is accepted from either seat at any time before the end, gates included;
  ``forfeit`` (the arbitration's time flag, and resigning) makes the other seat win.
- Error order: Malformed first (a seat other than 0/1, an object that is no command, a
  tile outside the set), then MATCH_OVER, then gate rules (AT_GATE / NOT_AT_GATE / ALREADY_PRESSED),
  then NOT_YOUR_DECISION, then WRONG_PHASE, then the command's own rules. Errors never
  change the state: nothing here mutates.
"""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from games.bid import auction, turns
from games.bid.commands import (
    Accept,
    Bid,
    Command,
    Draw,
    PassBid,
    Play,
    Ready,
    Resign,
)
from games.bid.events import Event, Pressed
from games.bid.model import Options, Phase, State
from games.bid.rounds import deal_round, end_match
from games.bid.tiles import FULL_SET
from games.decision import Decision, Gate, Outcome, Step, Termination
from games.errors import Malformed, Reason, Refused
from games.seats import SEATS, Seat, other, parse_seat

_TILES = frozenset(FULL_SET)
_COMMAND_TYPES = frozenset({Ready, Play, Draw, PassBid, Bid, Accept, Resign})
_ALONE = (frozenset({Seat(0)}), frozenset({Seat(1)}))
_NOBODY: frozenset[Seat] = frozenset()


def new_match(options: Options, seed: int) -> State:
    """Return a match with round 1 dealt, waiting at Gate.START for both seats."""
    start = options.start_balance
    return deal_round(options, seed, 1, (start, start), None, Gate.START)


def decision(state: State) -> Decision:
    """Return who must act now and whether it is a genuinely new decision."""
    if state.outcome is not None:
        return Decision(_NOBODY, False)
    if state.gate is not None:
        waiting = frozenset(s for s in SEATS if s not in state.pressed)
        return Decision(waiting, False, state.gate)
    return Decision(_ALONE[state.to_act], state.drawn is None)


def outcome(state: State) -> Outcome | None:
    """Return how the match ended, or None while it goes on."""
    return state.outcome


def legal_commands(state: State, seat: Seat) -> Iterator[Command]:
    """Yield every command ``seat`` may send now; bids are listed amount by amount.

    While the match goes on, ``resign`` is always available and always listed last.
    """
    if state.outcome is not None:
        return
    if state.gate is not None:
        if seat not in state.pressed:
            yield Ready()
    elif seat == state.to_act:
        if state.phase is Phase.AUCTION:
            yield from _auction_commands(state, seat)
        else:
            plays = turns.legal_plays(state, seat)
            yield from plays
            if not plays:
                yield Draw()
    yield Resign()


def _auction_commands(state: State, seat: Seat) -> Iterator[Command]:
    if state.bidder is None:
        yield PassBid()
    else:
        yield Accept()
    for amount in auction.legal_bids(state, seat):
        yield Bid(amount)


def apply(state: State, seat: Seat, command: Command) -> Step[State, Event]:
    """Return the step ``seat``'s ``command`` makes from ``state``; ``state`` is untouched.

    Raises:
        Malformed: for a seat or command that cannot exist.
        Refused: when the rules forbid the command now (see the module docstring).
    """
    seat = parse_seat(seat)
    _check_known(command)
    if state.outcome is not None:
        raise Refused(Reason.MATCH_OVER, f"the match is over: {command}")
    if isinstance(command, Resign):
        return forfeit(state, seat, Termination.RESIGN)
    events: list[Event] = []
    if state.gate is not None:
        after = _press(state, seat, command, events)
    else:
        if isinstance(command, Ready):
            raise Refused(Reason.NOT_AT_GATE, "nothing to press: play is under way")
        if seat != state.to_act:
            raise Refused(Reason.NOT_YOUR_DECISION, f"it is seat {state.to_act}'s decision")
        if state.phase is Phase.AUCTION:
            after = _bid(state, seat, command, events)
        else:
            after = _play(state, seat, command, events)
    # Every transition above returns the state with its version incremented.
    return Step(after, tuple(events), decision(after))


def forfeit(state: State, loser: Seat, termination: Termination) -> Step[State, Event]:
    """Return the step that ends the match with ``loser``'s opponent winning.

    Raises:
        Refused: MATCH_OVER when the match has already ended.
    """
    if state.outcome is not None:
        raise Refused(Reason.MATCH_OVER, "the match is over")
    events: list[Event] = []
    bumped = replace(state, version=state.version + 1)
    after = end_match(bumped, other(parse_seat(loser)), termination, events)
    return Step(after, tuple(events), decision(after))


def _press(state: State, seat: Seat, command: Command, events: list[Event]) -> State:
    if not isinstance(command, Ready):
        raise Refused(Reason.AT_GATE, f"press ready first: {command}")
    if seat in state.pressed:
        raise Refused(Reason.ALREADY_PRESSED, f"seat {seat} already pressed")
    assert state.gate is not None
    events.append(Pressed(seat, state.gate))
    pressed = (*state.pressed, seat)
    if len(pressed) == len(SEATS):
        return replace(state, version=state.version + 1, gate=None, pressed=())
    return replace(state, version=state.version + 1, pressed=pressed)


def _bid(state: State, seat: Seat, command: Command, events: list[Event]) -> State:
    if isinstance(command, PassBid):
        auction.check_pass(state)
        return auction.pass_auction(state, seat, events)
    if isinstance(command, Bid):
        auction.check_bid(state, seat, command.amount)
        return auction.bid(state, seat, command.amount, events)
    if isinstance(command, Accept):
        auction.check_accept(state)
        return auction.accept(state, seat, events)
    raise Refused(Reason.WRONG_PHASE, f"the auction is on: pass, bid or accept, not {command}")


def _play(state: State, seat: Seat, command: Command, events: list[Event]) -> State:
    if isinstance(command, Play):
        turns.check_play(state, seat, command.tile, command.end)
        return turns.play(state, seat, command.tile, command.end, events)
    if isinstance(command, Draw):
        turns.check_draw(state, seat)
        return turns.draw(state, seat, events)
    raise Refused(Reason.WRONG_PHASE, f"play is on: play or draw, not {command}")


def _check_known(command: object) -> None:
    # Commands built in code (not parsed) may still name a tile that cannot exist.
    if type(command) not in _COMMAND_TYPES:
        raise Malformed(Reason.UNKNOWN_COMMAND, f"{command!r} is not a Spectacular Bid command")
    if isinstance(command, Play) and command.tile not in _TILES:
        raise Malformed(Reason.BAD_ARGUMENT, f"{command.tile!r} is not a double-six tile")
