"""Apply one command from the wire: decode it, find its claim, let the engine judge it.

A pure function of (entry, state, seat, command): the servicer only decodes the request
before and encodes the reply after. Nudge and Reveal are the arbitration's commands, not a
game's: a nudge lifts a timed-out gate (see ``nudge``); a Reveal never reaches the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.contract import Claim
from games.decision import Step
from games.registry import Game
from games.seats import parse_seat
from photofinish.game.v1 import game_pb2
from services.rules import errors
from services.rules.nudge import nudge


@dataclass(frozen=True, slots=True)
class Applied:
    """An accepted command's step, and the claim it landed (Spit plays)."""

    step: Step[Any, Any]
    claim: Claim | None = None


def apply(entry: Game, state: Any, seat: int, command: game_pb2.Command) -> Applied:
    """Return what ``seat``'s ``command`` does to ``state``.

    Raises:
        Rejection: INVALID_ARGUMENT for a malformed command or seat, or a Reveal;
            FAILED_PRECONDITION when the engine refuses (with the claim and its label in
            the metadata when a claimed command was refused) or nothing is to be nudged.
    """
    kind = command.WhichOneof("kind")
    if kind == "nudge":
        with errors.engine_errors():
            return Applied(nudge(entry.engine, state))
    if kind == "reveal":
        raise errors.not_for_rules(kind)
    with errors.engine_errors():
        who = parse_seat(seat)
        decoded = entry.codec.command_from_proto(command)
    claim = entry.claim(state, who, decoded)
    metadata = None if claim is None else {"claim": claim.key, "label": claim.label}
    with errors.engine_errors(metadata):
        return Applied(entry.engine.apply(state, who, decoded), claim)
