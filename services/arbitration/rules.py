"""The arbitration's port to the rules service: a typed client with a deadline on every call."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import grpc

from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2, rules_pb2_grpc
from services.common.rejection import Rejection, from_rpc_error

CALL_TIMEOUT_S = 2.0

R = TypeVar("R")


class RulesClient:
    """Calls the stateless rules service; refusals come back as :class:`Rejection`."""

    def __init__(self, channel: grpc.aio.Channel) -> None:
        self._stub = rules_pb2_grpc.RulesStub(channel)

    async def new_match(
        self, game: game_pb2.Game.ValueType, options: game_pb2.Options, seed: int
    ) -> rules_pb2.StepReply:
        request = rules_pb2.NewMatchRequest(game=game, options=options, seed=seed)
        return await self._call(self._stub.NewMatch(request, timeout=CALL_TIMEOUT_S))

    async def apply(
        self,
        game: game_pb2.Game.ValueType,
        state: bytes,
        seat: int,
        command: game_pb2.Command,
    ) -> rules_pb2.StepReply:
        request = rules_pb2.ApplyRequest(game=game, state=state, seat=seat, command=command)
        return await self._call(self._stub.Apply(request, timeout=CALL_TIMEOUT_S))

    async def forfeit(
        self,
        game: game_pb2.Game.ValueType,
        state: bytes,
        loser: int,
        termination: game_pb2.Termination.ValueType,
    ) -> rules_pb2.StepReply:
        request = rules_pb2.ForfeitRequest(
            game=game, state=state, loser=loser, termination=termination
        )
        return await self._call(self._stub.Forfeit(request, timeout=CALL_TIMEOUT_S))

    async def view(
        self, game: game_pb2.Game.ValueType, state: bytes, seat: int
    ) -> rules_pb2.ViewReply:
        request = rules_pb2.ViewRequest(game=game, state=state, seat=seat)
        return await self._call(self._stub.View(request, timeout=CALL_TIMEOUT_S))

    @staticmethod
    async def _call(call: Awaitable[R]) -> R:
        try:
            return await call
        except grpc.aio.AioRpcError as error:
            raise from_rpc_error(error) from None


__all__ = ["Rejection", "RulesClient"]
