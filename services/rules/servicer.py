"""The Rules gRPC service: decode the request, call the game's pure functions, encode.

The game comes from the registry (``games``), so nothing here names one. Every refusal is
a :class:`Rejection` raised below (see ``errors`` for the codes) and sent as a rich status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import grpc

from games.codec import seat_from_proto, termination_from_proto
from games.decision import DEFAULT_LIFT_PAUSE_MS, Step
from games.seats import parse_seat
from photofinish.rules.v1 import rules_pb2, rules_pb2_grpc
from services.common.rejection import Rejection
from services.rules import errors, replies, steps
from services.rules.games import decode_state, entry_for
from services.rules.metrics import applying

R = TypeVar("R")
Context = grpc.aio.ServicerContext[object, object]

SERVICE_NAME = rules_pb2.DESCRIPTOR.services_by_name["Rules"].full_name


class RulesServicer(rules_pb2_grpc.RulesServicer):
    """Stateless: every request carries the state it is about.

    ``lift_pause_ms`` is the pause a due action waits before the server takes it (the
    timer a decision asks for; see ``Decision.lift``).
    """

    def __init__(self, lift_pause_ms: int = DEFAULT_LIFT_PAUSE_MS) -> None:
        self._pause_ms = lift_pause_ms

    async def NewMatch(
        self, request: rules_pb2.NewMatchRequest, context: Context
    ) -> rules_pb2.StepReply:
        return await _answer(context, lambda: self._new_match(request))

    async def Apply(self, request: rules_pb2.ApplyRequest, context: Context) -> rules_pb2.StepReply:
        return await _answer(context, lambda: self._apply(request))

    async def Forfeit(
        self, request: rules_pb2.ForfeitRequest, context: Context
    ) -> rules_pb2.StepReply:
        return await _answer(context, lambda: self._forfeit(request))

    async def View(self, request: rules_pb2.ViewRequest, context: Context) -> rules_pb2.ViewReply:
        return await _answer(context, lambda: self._view(request))

    async def LegalCommands(
        self, request: rules_pb2.LegalCommandsRequest, context: Context
    ) -> rules_pb2.LegalCommandsReply:
        return await _answer(context, lambda: _legal(request))

    def _new_match(self, request: rules_pb2.NewMatchRequest) -> rules_pb2.StepReply:
        entry = entry_for(request.game)
        with errors.engine_errors():
            options = entry.codec.options_from_proto(request.options)
            state = entry.engine.new_match(options, request.seed)
        step: Step[Any, Any] = Step(state, (), entry.engine.decision(state))
        return replies.step_reply(entry, step, lift_pause_ms=self._pause_ms)

    def _apply(self, request: rules_pb2.ApplyRequest) -> rules_pb2.StepReply:
        with applying(request.game):
            entry = entry_for(request.game)
            state = decode_state(entry, request.state)
            applied = steps.apply(entry, state, request.seat, request.command)
            return replies.step_reply(entry, applied.step, applied.claim, self._pause_ms)

    def _forfeit(self, request: rules_pb2.ForfeitRequest) -> rules_pb2.StepReply:
        entry = entry_for(request.game)
        state = decode_state(entry, request.state)
        with errors.engine_errors():
            loser = parse_seat(request.loser)
            termination = termination_from_proto(request.termination)
            step = entry.engine.forfeit(state, loser, termination)
        return replies.step_reply(entry, step, lift_pause_ms=self._pause_ms)

    def _view(self, request: rules_pb2.ViewRequest) -> rules_pb2.ViewReply:
        entry = entry_for(request.game)
        state = decode_state(entry, request.state)
        with errors.engine_errors():
            seat = seat_from_proto(request.seat)
        return replies.view_reply(entry, state, seat, self._pause_ms)


def _legal(request: rules_pb2.LegalCommandsRequest) -> rules_pb2.LegalCommandsReply:
    entry = entry_for(request.game)
    state = decode_state(entry, request.state)
    with errors.engine_errors():
        seat = parse_seat(request.seat)
    return replies.legal_reply(entry, entry.engine.legal_commands(state, seat))


async def _answer(context: Context, make: Callable[[], R]) -> R:
    """Return ``make()``, or end the call with the rejection it raised."""
    try:
        return make()
    except Rejection as rejection:
        await rejection.abort(context)
        raise  # abort always raises; this keeps the rejection if it ever did not


def register(server: grpc.aio.Server, lift_pause_ms: int = DEFAULT_LIFT_PAUSE_MS) -> list[str]:
    """Add the Rules service to ``server`` and return its full name."""
    rules_pb2_grpc.add_RulesServicer_to_server(RulesServicer(lift_pause_ms), server)
    return [SERVICE_NAME]
