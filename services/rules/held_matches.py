"""The matches a rules instance holds: each one's state, stepped in place by held calls.

The state of a live match stays here between commands instead of travelling with every
call: the arbitration sends the command and the version it last heard of, and gets back
the step's facts and perspectives. A call about a match this instance does not hold at
that version (it restarted, another instance held it, a step got lost) is refused
``not_held``; the arbitration then rebuilds the match here from its log (``restore``).
Matches nobody asked about for ``idle_s`` are dropped: the arbitration forgets a match it
let go, and this bounds what a forgotten ``forget`` could leave behind.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

import grpc

from games.codec import seat_from_proto, termination_from_proto
from games.decision import Step, Termination
from games.protowire import message_field
from games.registry import Game
from games.seats import parse_seat
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.common.rejection import Rejection
from services.rules import errors, replies, steps
from services.rules.games import entry_for
from services.rules.metrics import Applying

NOT_HELD = "not_held"
_ANSWER_STEP = rules_pb2.RulesAnswer.DESCRIPTOR.fields_by_name["step"].number
NOT_A_RESIGNATION = "not_a_resignation"
IDLE_S = 1800.0  # a match nobody asked about for half an hour is dropped


def not_held(match_id: str, version: int) -> Rejection:
    """Return the refusal of a call about a match this instance does not hold at ``version``."""
    return Rejection(
        grpc.StatusCode.FAILED_PRECONDITION,
        NOT_HELD,
        f"this rules instance does not hold match {match_id!r} at version {version}",
    )


@dataclass(slots=True)
class Held:
    """One match's game and current state, and when it was last asked about."""

    game: Game
    state: Any
    used_s: float


class HeldMatches:
    """The held matches of this instance, by match id."""

    def __init__(self, lift_pause_ms: int, idle_s: float = IDLE_S) -> None:
        self._pause_ms = lift_pause_ms
        self._idle_s = idle_s
        self._held: dict[str, Held] = {}

    def __len__(self) -> int:
        return len(self._held)

    def state_of(self, match_id: str) -> Any:
        """Return the state held for ``match_id`` (None: not held)."""
        held = self._held.get(match_id)
        return None if held is None else held.state

    def encoded_answer(self, call: rules_pb2.HeldCall) -> bytes:
        """Return the encoded answer to one held call (its refusal, when it is refused).
        A step, the answer to nearly every call, is encoded once by hand and wrapped as
        bytes, not built as an answer message."""
        try:
            kind = call.WhichOneof("kind")
            if kind == "apply":
                return _step_answer(self._apply_to(*_apply_args(call)))
            if kind == "open":
                return _step_answer(self._open(call.match_id, call.open))
            if kind == "forfeit":
                return _step_answer(self._forfeit(call))
            if kind == "view":
                return rules_pb2.RulesAnswer(view=self._view(call)).SerializeToString()
            if kind == "restore":
                return _step_answer(self._restore(call.match_id, call.restore))
            if kind == "forget":
                self._held.pop(call.match_id, None)
                return _step_answer(b"")
            raise Rejection(
                grpc.StatusCode.INVALID_ARGUMENT, "bad_call", "the call names no rules method"
            )
        except Rejection as rejection:
            return rules_pb2.RulesAnswer(refusal=rejection.to_refusal()).SerializeToString()

    def answer(self, call: rules_pb2.HeldCall) -> rules_pb2.RulesAnswer:
        """Return the answer to one held call, decoded (``encoded_answer``'s)."""
        return rules_pb2.RulesAnswer.FromString(self.encoded_answer(call))

    def drop_idle(self, now_s: float | None = None) -> int:
        """Drop the matches nobody asked about for ``idle_s``; return how many went."""
        cutoff = (time.monotonic() if now_s is None else now_s) - self._idle_s
        idle = [match_id for match_id, held in self._held.items() if held.used_s < cutoff]
        for match_id in idle:
            del self._held[match_id]
        return len(idle)

    def _open(self, match_id: str, request: rules_pb2.NewMatchRequest) -> bytes:
        game = entry_for(request.game)
        with errors.engine_errors():
            options = game.codec.options_from_proto(request.options)
            state = game.engine.new_match(options, request.seed)
        self._held[match_id] = Held(game, state, time.monotonic())
        step: Step[Any, Any] = Step(state, (), game.engine.decision(state))
        return self._reply(game, step)

    def encoded_apply(
        self,
        match_id: str,
        version: int,
        seat: int,
        command: game_pb2.Command,
        spectators: bool = False,
        resignation_only: bool = False,
    ) -> bytes:
        """Return the encoded answer to applying ``seat``'s ``command`` at ``version`` (as
        a held call's ``apply``, without making the call: a stored command's way)."""
        try:
            step = self._apply_to(match_id, version, seat, command, spectators, resignation_only)
        except Rejection as rejection:
            return rules_pb2.RulesAnswer(refusal=rejection.to_refusal()).SerializeToString()
        return _step_answer(step)

    def _apply_to(
        self,
        match_id: str,
        version: int,
        seat: int,
        command: game_pb2.Command,
        spectators: bool,
        resignation_only: bool,
    ) -> bytes:
        held = self._held_at(match_id, version)
        with Applying(held.game.number):
            applied = steps.apply(held.game, held.state, seat, command)
            if resignation_only and not _resigns(held.game, applied.step):
                raise not_a_resignation()  # the step is not taken: states never change
            held.state = applied.step.state
            return self._reply(held.game, applied.step, applied.claim, spectators, version)

    def _forfeit(self, call: rules_pb2.HeldCall) -> bytes:
        held = self._holding(call)
        request = call.forfeit
        with errors.engine_errors():
            loser = parse_seat(request.loser)
            termination = termination_from_proto(request.termination)
            step = held.game.engine.forfeit(held.state, loser, termination)
        held.state = step.state
        return self._reply(held.game, step, spectators=request.spectators, since=call.version)

    def _view(self, call: rules_pb2.HeldCall) -> rules_pb2.ViewReply:
        held = self._holding(call)
        with errors.engine_errors():
            seat = seat_from_proto(call.view.seat)
        return replies.view_reply(held.game, held.state, seat, self._pause_ms)

    def _restore(self, match_id: str, request: rules_pb2.Restore) -> bytes:
        """Rebuild the match from its seed and steps (refused, it holds nothing)."""
        self._held.pop(match_id, None)
        game = entry_for(request.match.game)
        with errors.engine_errors():
            options = game.codec.options_from_proto(request.match.options)
            state = game.engine.new_match(options, request.match.seed)
        for step in request.steps:
            state = _replayed(game, state, step)
        self._held[match_id] = Held(game, state, time.monotonic())
        last: Step[Any, Any] = Step(state, (), game.engine.decision(state))
        return self._reply(game, last, spectators=request.spectators)

    def _holding(self, call: rules_pb2.HeldCall) -> Held:
        return self._held_at(call.match_id, call.version)

    def _held_at(self, match_id: str, version: int) -> Held:
        held = self._held.get(match_id)
        if held is None or held.state.version != version:
            raise not_held(match_id, version)
        held.used_s = time.monotonic()
        return held

    def _reply(
        self,
        game: Game,
        step: Step[Any, Any],
        claim: Any = None,
        spectators: bool = False,
        since: int = -1,
    ) -> bytes:
        """Return the encoded StepReply for ``step`` taken from version ``since`` (-1: a
        restore), with its state's hash (the state itself stays here)."""
        digest = hashlib.sha256(game.engine.encode_state(step.state)).digest()
        return replies.encoded_step(
            game, step, claim, self._pause_ms, spectators, state_sha256=digest, since=since
        )


def _step_answer(step: bytes) -> bytes:
    """Return an encoded StepReply as the encoded RulesAnswer that carries it."""
    return message_field(_ANSWER_STEP, step)


def _resigns(game: Game, step: Step[Any, Any]) -> bool:
    """Return whether ``step`` ended the match by the acting seat's resignation."""
    outcome = game.engine.outcome(step.state)
    return outcome is not None and outcome.termination is Termination.RESIGN


def not_a_resignation() -> Rejection:
    """Return the refusal of a command that had to be a resignation and was not."""
    return Rejection(
        grpc.StatusCode.FAILED_PRECONDITION,
        NOT_A_RESIGNATION,
        "only a resignation is taken now (a shared device waits to change hands)",
    )


def _replayed(game: Game, state: Any, step: rules_pb2.RestoreStep) -> Any:
    """Return ``state`` after one logged step (the log holds only steps that were taken).

    Raises:
        Rejection: when the step does not apply: the log and the engine disagree.
    """
    if step.WhichOneof("kind") == "forfeit":
        with errors.engine_errors():
            return game.engine.forfeit(
                state, parse_seat(step.seat), termination_from_proto(step.forfeit)
            ).state
    return steps.apply(game, state, step.seat, step.command).step.state


def _apply_args(
    call: rules_pb2.HeldCall,
) -> tuple[str, int, int, game_pb2.Command, bool, bool]:
    """Return what an ``apply`` call asks: match, version, seat, command, and its flags."""
    request = call.apply
    return (
        call.match_id,
        call.version,
        request.seat,
        request.command,
        request.spectators,
        request.resignation_only,
    )
