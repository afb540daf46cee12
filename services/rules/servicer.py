"""The Rules gRPC service: each method is one of ``calls``, answered one at a time.

Every refusal is a :class:`Rejection` raised by ``calls`` and sent as a rich status.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import grpc

from games.decision import DEFAULT_LIFT_PAUSE_MS
from photofinish.rules.v1 import rules_pb2, rules_pb2_grpc
from services.common.rejection import Rejection
from services.rules import calls

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
        return await _answer(context, lambda: calls.new_match(request, self._pause_ms))

    async def Apply(self, request: rules_pb2.ApplyRequest, context: Context) -> rules_pb2.StepReply:
        return await _answer(context, lambda: calls.apply(request, self._pause_ms))

    async def Forfeit(
        self, request: rules_pb2.ForfeitRequest, context: Context
    ) -> rules_pb2.StepReply:
        return await _answer(context, lambda: calls.forfeit(request, self._pause_ms))

    async def View(self, request: rules_pb2.ViewRequest, context: Context) -> rules_pb2.ViewReply:
        return await _answer(context, lambda: calls.view(request, self._pause_ms))

    async def LegalCommands(
        self, request: rules_pb2.LegalCommandsRequest, context: Context
    ) -> rules_pb2.LegalCommandsReply:
        return await _answer(context, lambda: calls.legal(request))


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
