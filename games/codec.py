"""What every game's codec shares: seats, gates, terminations, decisions, outcomes, levels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.bot import Level
from games.decision import DEFAULT_LIFT_PAUSE_MS, Decision, Gate, Outcome, Termination
from games.errors import Malformed, Reason
from games.seats import Seat, parse_seat
from photofinish.game.v1 import game_pb2

NO_SEAT = -1  # on the wire: no seat (no bidder, no winner yet) or the spectators

_GATES: dict[Gate, game_pb2.Gate.ValueType] = {
    Gate.START: game_pb2.GATE_START,
    Gate.CONTINUE: game_pb2.GATE_CONTINUE,
    Gate.SPIT: game_pb2.GATE_SPIT,
    Gate.PAUSED: game_pb2.GATE_PAUSED,
}
_TERMINATIONS: dict[Termination, game_pb2.Termination.ValueType] = {
    Termination.CHIPS: game_pb2.TERMINATION_CHIPS,
    Termination.CARDS: game_pb2.TERMINATION_CARDS,
    Termination.TIME: game_pb2.TERMINATION_TIME,
    Termination.RESIGN: game_pb2.TERMINATION_RESIGN,
    Termination.ABANDONED: game_pb2.TERMINATION_ABANDONED,
}
_TERMINATIONS_BY_NUMBER = {
    int(number): termination for termination, number in _TERMINATIONS.items()
}
_GATES_BY_NUMBER = {int(number): gate for gate, number in _GATES.items()}


def seat_to_proto(seat: Seat | None) -> int:
    """Return ``seat`` as sent on the wire: -1 for none."""
    return NO_SEAT if seat is None else int(seat)


def seat_from_proto(value: int) -> Seat | None:
    """Return the seat ``value`` names, None for -1 (a spectator).

    Raises:
        Malformed: NO_SUCH_SEAT for anything but -1, 0 and 1.
    """
    return None if value == NO_SEAT else parse_seat(value)


def seats_to_proto(seats: frozenset[Seat] | tuple[Seat, ...]) -> list[int]:
    """Return ``seats`` in seat order."""
    return sorted(int(seat) for seat in seats)


def seats_from_proto(values: Sequence[int]) -> tuple[Seat, ...]:
    """Return the seats ``values`` name, in seat order.

    Raises:
        Malformed: NO_SUCH_SEAT for anything but 0 and 1.
    """
    return tuple(sorted(parse_seat(value) for value in values))


def gate_to_proto(gate: Gate | None) -> game_pb2.Gate.ValueType:
    """Return the wire number of ``gate`` (GATE_NONE for None)."""
    return game_pb2.GATE_NONE if gate is None else _GATES[gate]


def gate_from_proto(value: int) -> Gate | None:
    """Return the engine gate ``value`` numbers, None for GATE_NONE.

    Raises:
        Malformed: BAD_ARGUMENT for a number no engine view carries (GATE_HANDOVER is the
            arbitration's, never an engine's) or an unknown one.
    """
    if value == game_pb2.GATE_NONE:
        return None
    gate = _GATES_BY_NUMBER.get(value)
    if gate is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"gate {value!r} is not an engine's gate")
    return gate


def termination_to_proto(termination: Termination) -> game_pb2.Termination.ValueType:
    """Return the wire number of ``termination``."""
    return _TERMINATIONS[termination]


def termination_from_proto(value: int) -> Termination:
    """Return the termination ``value`` numbers.

    Raises:
        Malformed: BAD_ARGUMENT for TERMINATION_UNSPECIFIED or an unknown number.
    """
    termination = _TERMINATIONS_BY_NUMBER.get(value)
    if termination is None:
        raise Malformed(Reason.BAD_ARGUMENT, f"termination {value!r} is not a known one")
    return termination


# The timer each gate asks of the server: presses the players owe wait for the gate
# timeout; a due spit comes after the game's pause; a paused match waits for its players.
_LIFTS: dict[Gate, game_pb2.Lift.ValueType] = {
    Gate.START: game_pb2.LIFT_AFTER_GATE_TIMEOUT,
    Gate.CONTINUE: game_pb2.LIFT_AFTER_GATE_TIMEOUT,
    Gate.SPIT: game_pb2.LIFT_AFTER_PAUSE,
    Gate.PAUSED: game_pb2.LIFT_NONE,
}


def decision_to_proto(
    decision: Decision, lift_pause_ms: int = DEFAULT_LIFT_PAUSE_MS
) -> game_pb2.Decision:
    """Return ``decision`` as sent on the wire, with the timer it asks of the server."""
    lift = game_pb2.LIFT_NONE if decision.gate is None else _LIFTS[decision.gate]
    return game_pb2.Decision(
        seats=seats_to_proto(decision.seats),
        fresh=decision.fresh,
        gate=gate_to_proto(decision.gate),
        lift=lift,
        lift_after_ms=lift_pause_ms if lift == game_pb2.LIFT_AFTER_PAUSE else 0,
    )


def outcome_to_proto(outcome: Outcome) -> game_pb2.Outcome:
    """Return ``outcome`` as sent on the wire."""
    return game_pb2.Outcome(
        winner=int(outcome.winner), termination=termination_to_proto(outcome.termination)
    )


def result_to_proto(outcome: Outcome | None) -> tuple[int, int]:
    """Return (winner, termination number) for a view: (-1, 0) while the match goes on."""
    if outcome is None:
        return NO_SEAT, game_pb2.TERMINATION_UNSPECIFIED
    return int(outcome.winner), termination_to_proto(outcome.termination)


def result_from_proto(winner: int, termination: int) -> Outcome | None:
    """Return a view's outcome from (winner, termination number): None for (-1, 0).

    Raises:
        Malformed: NO_SUCH_SEAT or BAD_ARGUMENT when the two do not name an outcome.
    """
    if winner == NO_SEAT and termination == game_pb2.TERMINATION_UNSPECIFIED:
        return None
    return Outcome(parse_seat(winner), termination_from_proto(termination))


def pair_from_proto(values: Sequence[int], what: str) -> tuple[int, int]:
    """Return a by-seat pair of numbers (hand counts, balances).

    Raises:
        Malformed: BAD_ARGUMENT unless there are exactly two.
    """
    if len(values) != 2:
        raise Malformed(Reason.BAD_ARGUMENT, f"{what}: expected one per seat, got {list(values)}")
    return values[0], values[1]


LEVELS: Mapping[int, Level] = {
    game_pb2.LEVEL_EASY: Level.EASY,
    game_pb2.LEVEL_MEDIUM: Level.MEDIUM,
    game_pb2.LEVEL_HARD: Level.HARD,
}


def level_from_proto(value: int) -> Level | None:
    """Return the computer player's level ``value`` numbers, None for an unknown one."""
    return LEVELS.get(value)
