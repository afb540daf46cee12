"""The gateway's Submits over NATS: a batch in, each command stamped on arrival, answers out.

The batch's commands are stamped with the instant the message reached this callback and
queued in the batch's order before anything is awaited (the subscription hands messages
over one at a time, in the order they came). Each answer goes back to the batch's reply
subject as soon as its command is judged, naming its Submit by its place in the batch,
in the same event-loop turn as the views the command changed: both leave in one write.
"""

from __future__ import annotations

import logging

import nats.errors
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from photofinish.arbitration.v1 import arbitration_pb2
from services.arbitration.intake import take_in
from services.arbitration.match import Answer, Reply
from services.arbitration.matches import Matches
from services.common.rejection import Rejection
from wire import subjects

log = logging.getLogger("arbitration")


class SubmitIntake:
    """Takes in the gateway's batches and sends each answer back when it is ready."""

    def __init__(self, nc: NATS, matches: Matches) -> None:
        self._nc = nc
        self._matches = matches
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
            reply = self._replier(message.reply, index)
            try:
                take_in(
                    self._matches,
                    forwarded.request,
                    forwarded.player_id,
                    received_ns,
                    arrival_ns,
                    reply,
                )
            except Rejection as rejection:
                await reply(rejection)

    def _replier(self, subject: str, index: int) -> Reply:
        """Return the reply of the batch's ``index``-th Submit: one message, sent once."""
        answered = False

        async def reply(answer: Answer) -> None:
            nonlocal answered
            if answered:
                return
            answered = True
            if isinstance(answer, Rejection):
                sent = arbitration_pb2.SubmitAnswer(index=index, refusal=answer.to_refusal())
            else:
                sent = arbitration_pb2.SubmitAnswer(index=index, reply=answer)
            data = arbitration_pb2.SubmitAnswers(answers=[sent]).SerializeToString()
            try:
                await self._nc.publish(subject, data)
            except nats.errors.Error as error:  # the gateway times the Submit out
                log.warning("answer not sent", extra={"fields": {"why": repr(error)}})

        return reply

    async def stop(self) -> None:
        for subscription in self._subscriptions:
            await subscription.unsubscribe()
