"""The gateway's Submits over NATS: a batch in, each command stamped on arrival, answers out.

The batch's commands are stamped with the instant the message reached this callback and
queued in the batch's order before anything is awaited (the subscription hands messages
over one at a time, in the order they came). Each answer goes back to the batch's reply
subject as soon as its command is judged; the answers ready in one event-loop turn leave
in one message (``SubmitAnswers``), each naming its Submit by its place in the batch.
"""

from __future__ import annotations

import asyncio
import functools
import logging

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from photofinish.arbitration.v1 import arbitration_pb2
from services.arbitration.intake import take_in
from services.arbitration.matches import Matches
from services.arbitration.referee import failed, moved
from services.common.rejection import Rejection
from wire import subjects
from wire.batching import Coalescer

log = logging.getLogger("arbitration")


class SubmitIntake:
    """Takes in the gateway's batches and sends each answer back when it is ready."""

    def __init__(self, nc: NATS, matches: Matches) -> None:
        self._nc = nc
        self._matches = matches
        self._answers: Coalescer[arbitration_pb2.SubmitAnswer] = Coalescer(self._send)
        self._subscriptions: list[Subscription] = []

    async def start(self, instance: str) -> None:
        """Take in the batches sent to this instance, and those for a match of unknown owner."""
        self._subscriptions = [
            await self._nc.subscribe(subjects.submits(instance), cb=self.on_batch),
            await self._nc.subscribe(
                subjects.SUBMITS_ANY, queue=subjects.ARBITRATION_QUEUE, cb=self.on_batch
            ),
        ]

    async def on_batch(self, message: Msg) -> None:
        arrival_ns = self._matches.now()  # the instant that counts: before anything awaits
        batch = arbitration_pb2.Submits.FromString(message.data)
        for index, forwarded in enumerate(batch.submits):
            received_ns = forwarded.received_ns or None
            try:
                answer = take_in(
                    self._matches, forwarded.request, forwarded.player_id, received_ns, arrival_ns
                )
            except Rejection as rejection:
                self._refused(message.reply, index, rejection)
                continue
            answer.add_done_callback(functools.partial(self._answered, message.reply, index))

    def _answered(
        self, reply: str, index: int, done: asyncio.Future[arbitration_pb2.SubmitReply]
    ) -> None:
        if done.cancelled():  # not done by the referee; the gateway's caller may call again
            error: BaseException | None = moved()
        else:
            error = done.exception()
        if error is None:
            self._answers.add(reply, arbitration_pb2.SubmitAnswer(index=index, reply=done.result()))
        elif isinstance(error, Rejection):
            self._refused(reply, index, error)
        else:  # the referee answers with a Rejection or a reply; anything else is a bug
            log.error("submit answered with %r", error)
            self._refused(reply, index, failed())

    def _refused(self, reply: str, index: int, rejection: Rejection) -> None:
        answer = arbitration_pb2.SubmitAnswer(index=index, refusal=rejection.to_refusal())
        self._answers.add(reply, answer)

    async def _send(self, reply: str, answers: list[arbitration_pb2.SubmitAnswer]) -> None:
        data = arbitration_pb2.SubmitAnswers(answers=answers).SerializeToString()
        await self._nc.publish(reply, data)

    async def stop(self) -> None:
        for subscription in self._subscriptions:
            await subscription.unsubscribe()
        await self._answers.close()
