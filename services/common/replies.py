"""A command's answer, and the reply that takes it back to whoever sent the command.

A reply is called once with the answer: the accepted command's ``SubmitReply``, or the
``Rejection`` that refused it. Every path a command comes by (the gateway's play socket,
its Submit over gRPC-web, the batch forwarded over NATS, the arbitration's own gRPC
Submit) hands the arbitration a ``Reply`` of its own; a second call is ignored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.rejection import Rejection

Answer = arbitration_pb2.SubmitReply | Rejection
Reply = Callable[[Answer], None]


def reply_into(future: asyncio.Future[arbitration_pb2.SubmitReply]) -> Reply:
    """Return a reply that settles ``future`` with the answer (the first one only)."""

    def reply(answer: Answer) -> None:
        if future.done():
            return
        if isinstance(answer, Rejection):
            future.set_exception(answer)
        else:
            future.set_result(answer)

    return reply
