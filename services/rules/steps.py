"""Apply one command from the wire: decode it, find its claim, let the engine judge it.

A pure function of (entry, state, seat, command): the servicer only decodes the request
before and encodes the reply after. Nudge and Reveal are the arbitration's commands, not a
game's: a nudge lifts a timed-out gate (see ``nudge``); a Reveal never reaches the rules.
"""

from __future__ import annotations

from typing import Any

import msgspec

from games.contract import Claim
from games.decision import Step
from games.errors import EngineError
from games.registry import Game
from games.seats import parse_seat
from photofinish.game.v1 import game_pb2
from services.rules import errors
from services.rules.nudge import nudge


class Applied(msgspec.Struct, frozen=True):
    """An accepted command's step, and the claim it landed (Spit plays)."""

    step: Step[Any, Any]
    claim: Claim | None = None


def apply(entry: Game, state: Any, seat: int, command: game_pb2.Command) -> Applied:
    """Return what ``seat``'s ``command`` does to ``state``.

    Raises:
        Rejection: INVALID_ARGUMENT for a malformed command or seat, or a Reveal;
            FAILED_PRECONDITION when the engine refuses (with the claim, its slot and its
            label in the metadata when a claimed command was refused, and ``lost_race``
            when the refusal means another command changed the claimed resource first) or
            nothing is to be nudged.
    """
    kind = command.WhichOneof("kind")
    if kind == "nudge":
        with errors.engine_errors():
            return Applied(nudge(entry.engine, state))
    if kind in ("reveal", "claim"):
        raise errors.not_for_rules(kind)
    with errors.engine_errors():
        who = parse_seat(seat)
        decoded = entry.codec.command_from_proto(command)
    claim = entry.claim(state, who, decoded)
    try:
        step = entry.engine.apply(state, who, decoded)
    except EngineError as error:
        raise errors.from_engine(error, _claim_metadata(entry, claim, error, decoded)) from None
    return Applied(step, claim)


def _claim_metadata(
    entry: Game, claim: Claim | None, error: EngineError, command: Any
) -> dict[str, str] | None:
    """Return what a refusal tells of the claim its command made (None: it made none)."""
    if claim is None:
        return None
    metadata = {"claim": claim.key, "claim_slot": str(claim.slot), "label": claim.label}
    if entry.lost_race(error.reason, command):
        metadata["lost_race"] = "true"
    return metadata
