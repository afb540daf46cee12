"""The arbitration's port to the rules service: typed calls, batched over NATS.

Every call made in one event-loop turn (one per match at most: a match's worker awaits its
call) travels in one ``RulesCalls`` request on ``pf.rules.calls``; any rules instance
answers the batch (see ``services/rules/hop.py``). A refusal comes back as
:class:`Rejection`; no answer within ``CALL_TIMEOUT_S``, or no rules instance at all, is
UNAVAILABLE ``rules_unavailable``.
"""

from __future__ import annotations

from collections.abc import Sequence

import grpc
import nats.errors
from nats.aio.client import Client as NATS

from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.common.rejection import Rejection, from_refusal
from wire import subjects
from wire.batching import Batcher

CALL_TIMEOUT_S = 2.0


class RulesClient:
    """Calls the stateless rules service; refusals come back as :class:`Rejection`."""

    def __init__(self, nc: NATS, timeout_s: float = CALL_TIMEOUT_S) -> None:
        self._nc = nc
        self._timeout_s = timeout_s
        self._batcher: Batcher[rules_pb2.RulesCall, rules_pb2.RulesAnswer] = Batcher(self._send)

    async def new_match(
        self, game: game_pb2.Game.ValueType, options: game_pb2.Options, seed: int
    ) -> rules_pb2.StepReply:
        request = rules_pb2.NewMatchRequest(game=game, options=options, seed=seed)
        return _step(await self._batcher.call(rules_pb2.RulesCall(new_match=request)))

    async def apply(
        self,
        game: game_pb2.Game.ValueType,
        state: bytes,
        seat: int,
        command: game_pb2.Command,
        spectators: bool = False,
    ) -> rules_pb2.StepReply:
        request = rules_pb2.ApplyRequest(
            game=game, state=state, seat=seat, command=command, spectators=spectators
        )
        return _step(await self._batcher.call(rules_pb2.RulesCall(apply=request)))

    async def forfeit(
        self,
        game: game_pb2.Game.ValueType,
        state: bytes,
        loser: int,
        termination: game_pb2.Termination.ValueType,
        spectators: bool = False,
    ) -> rules_pb2.StepReply:
        request = rules_pb2.ForfeitRequest(
            game=game, state=state, loser=loser, termination=termination, spectators=spectators
        )
        return _step(await self._batcher.call(rules_pb2.RulesCall(forfeit=request)))

    async def view(
        self, game: game_pb2.Game.ValueType, state: bytes, seat: int
    ) -> rules_pb2.ViewReply:
        request = rules_pb2.ViewRequest(game=game, state=state, seat=seat)
        answer = await self._batcher.call(rules_pb2.RulesCall(view=request))
        if answer.HasField("refusal"):
            raise from_refusal(answer.refusal)
        return answer.view

    async def _send(self, batch: list[rules_pb2.RulesCall]) -> Sequence[rules_pb2.RulesAnswer]:
        data = rules_pb2.RulesCalls(calls=batch).SerializeToString()
        try:
            reply = await self._nc.request(subjects.RULES_CALLS, data, timeout=self._timeout_s)
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError) as error:
            raise Rejection(
                grpc.StatusCode.UNAVAILABLE,
                "rules_unavailable",
                f"the rules service did not answer ({type(error).__name__})",
            ) from None
        return rules_pb2.RulesAnswers.FromString(reply.data).answers

    async def close(self) -> None:
        await self._batcher.close()


def _step(answer: rules_pb2.RulesAnswer) -> rules_pb2.StepReply:
    if answer.HasField("refusal"):
        raise from_refusal(answer.refusal)
    return answer.step


__all__ = ["Rejection", "RulesClient"]
