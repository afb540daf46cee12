"""The Rules gRPC service: decode the request, call the game's pure functions, encode.

The game comes from the registry (``games``), so nothing here names one. Every refusal is
a :class:`Rejection` raised below (see ``errors`` for the codes) and sent as a rich status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import grpc

from games.codec import seat_from_proto, termination_from_proto
from games.decision import Step
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
    """Stateless: every request carries the state it is about."""

    async def NewMatch(
        self, request: rules_pb2.NewMatchRequest, context: Context
    ) -> rules_pb2.StepReply:
        return await _answer(context, lambda: _new_match(request))

    async def Apply(self, request: rules_pb2.ApplyRequest, context: Context) -> rules_pb2.StepReply:
        return await _answer(context, lambda: _apply(request))

    async def Forfeit(
        self, request: rules_pb2.ForfeitRequest, context: Context
    ) -> rules_pb2.StepReply:
        return await _answer(context, lambda: _forfeit(request))

    async def View(self, request: rules_pb2.ViewRequest, context: Context) -> rules_pb2.ViewReply:
        return await _answer(context, lambda: _view(request))

    async def LegalCommands(
        self, request: rules_pb2.LegalCommandsRequest, context: Context
    ) -> rules_pb2.LegalCommandsReply:
        return await _answer(context, lambda: _legal(request))


def _new_match(request: rules_pb2.NewMatchRequest) -> rules_pb2.StepReply:
    entry = entry_for(request.game)
    with errors.engine_errors():
        options = entry.codec.options_from_proto(request.options)
        state = entry.engine.new_match(options, request.seed)
    return replies.step_reply(entry, Step(state, (), entry.engine.decision(state)))


def _apply(request: rules_pb2.ApplyRequest) -> rules_pb2.StepReply:
    with applying(request.game):
        entry = entry_for(request.game)
        state = decode_state(entry, request.state)
        applied = steps.apply(entry, state, request.seat, request.command)
        return replies.step_reply(entry, applied.step, applied.claim)


def _forfeit(request: rules_pb2.ForfeitRequest) -> rules_pb2.StepReply:
    entry = entry_for(request.game)
    state = decode_state(entry, request.state)
    with errors.engine_errors():
        loser = parse_seat(request.loser)
        step = entry.engine.forfeit(state, loser, termination_from_proto(request.termination))
    return replies.step_reply(entry, step)


def _view(request: rules_pb2.ViewRequest) -> rules_pb2.ViewReply:
    entry = entry_for(request.game)
    state = decode_state(entry, request.state)
    with errors.engine_errors():
        seat = seat_from_proto(request.seat)
    return replies.view_reply(entry, state, seat)


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


def register(server: grpc.aio.Server) -> list[str]:
    """Add the Rules service to ``server`` and return its full name."""
    rules_pb2_grpc.add_RulesServicer_to_server(RulesServicer(), server)
    return [SERVICE_NAME]
