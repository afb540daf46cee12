"""The rules service's refusals as gRPC statuses: the one place engine reasons get a code.

An engine ``Malformed`` becomes INVALID_ARGUMENT and a ``Refused`` FAILED_PRECONDITION;
either way ``ErrorInfo.reason`` is the engine's ``Reason`` value, so the arbitration and
the clients branch on the same string the engine chose. The service's own reasons (a
game or state it cannot read, a nudge with nothing to do) are named here too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping

import grpc

from games.errors import EngineError, Malformed
from services.common.rejection import Rejection

UNKNOWN_GAME = "unknown_game"
BAD_STATE = "bad_state"
NOTHING_TO_NUDGE = "nothing_to_nudge"
NOT_FOR_RULES = "not_for_rules"


def from_engine(error: EngineError, metadata: Mapping[str, str] | None = None) -> Rejection:
    """Return the rejection for an engine error, its reason unchanged."""
    code = (
        grpc.StatusCode.INVALID_ARGUMENT
        if isinstance(error, Malformed)
        else grpc.StatusCode.FAILED_PRECONDITION
    )
    return Rejection(code, error.reason.value, error.detail, metadata)


@contextlib.contextmanager
def engine_errors(metadata: Mapping[str, str] | None = None) -> Iterator[None]:
    """Turn an engine error raised inside the block into a :class:`Rejection`.

    Raises:
        Rejection: with ``metadata`` attached, for any ``Malformed`` or ``Refused``.
    """
    try:
        yield
    except EngineError as error:
        raise from_engine(error, metadata) from None


def unknown_game(game: int) -> Rejection:
    """Return the rejection of a game number no engine serves."""
    return Rejection(grpc.StatusCode.INVALID_ARGUMENT, UNKNOWN_GAME, f"no game numbered {game}")


def bad_state(game: str, detail: str) -> Rejection:
    """Return the rejection of state bytes that are not a state of ``game``."""
    return Rejection(grpc.StatusCode.INVALID_ARGUMENT, BAD_STATE, f"not a {game} state: {detail}")


def nothing_to_nudge(detail: str) -> Rejection:
    """Return the rejection of a nudge where no gate waits for a press or a spit."""
    return Rejection(grpc.StatusCode.FAILED_PRECONDITION, NOTHING_TO_NUDGE, detail)


def not_for_rules(kind: str) -> Rejection:
    """Return the rejection of a command the arbitration handles itself (Reveal)."""
    return Rejection(
        grpc.StatusCode.INVALID_ARGUMENT, NOT_FOR_RULES, f"{kind} is the arbitration's to handle"
    )
