"""The rules service on the hot path: batches of calls over NATS, answered in order.

The arbitration sends every call it has ready in an event-loop turn as one ``RulesCalls``
request on ``pf.rules.calls``; the instances answer as one queue group, so any of them
serves any batch (the service keeps no state). Each call is answered by the same pure
function its gRPC method uses; a refused call's answer is its ``Refusal``.
"""

from __future__ import annotations

import grpc
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from photofinish.rules.v1 import rules_pb2
from services.common.rejection import Rejection
from services.rules import calls
from wire import subjects


def answer(call: rules_pb2.RulesCall, lift_pause_ms: int) -> rules_pb2.RulesAnswer:
    """Return the answer to one call of a batch (its refusal, when the rules refuse it)."""
    try:
        kind = call.WhichOneof("kind")
        if kind == "apply":
            return rules_pb2.RulesAnswer(step=calls.apply(call.apply, lift_pause_ms))
        if kind == "new_match":
            return rules_pb2.RulesAnswer(step=calls.new_match(call.new_match, lift_pause_ms))
        if kind == "forfeit":
            return rules_pb2.RulesAnswer(step=calls.forfeit(call.forfeit, lift_pause_ms))
        if kind == "view":
            return rules_pb2.RulesAnswer(view=calls.view(call.view, lift_pause_ms))
        raise Rejection(
            grpc.StatusCode.INVALID_ARGUMENT, "bad_call", "the call names no rules method"
        )
    except Rejection as rejection:
        return rules_pb2.RulesAnswer(refusal=rejection.to_refusal())


def answer_batch(data: bytes, lift_pause_ms: int) -> bytes:
    """Return the encoded answers to an encoded batch of calls, in the same order."""
    batch = rules_pb2.RulesCalls.FromString(data)
    answers = rules_pb2.RulesAnswers(answers=[answer(c, lift_pause_ms) for c in batch.calls])
    return answers.SerializeToString()


async def serve_calls(nc: NATS, lift_pause_ms: int) -> Subscription:
    """Answer the arbitration's batches on ``pf.rules.calls`` until unsubscribed."""

    async def on_batch(message: Msg) -> None:
        await message.respond(answer_batch(message.data, lift_pause_ms))

    return await nc.subscribe(subjects.RULES_CALLS, queue=subjects.RULES_QUEUE, cb=on_batch)
