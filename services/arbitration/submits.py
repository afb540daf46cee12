"""The gateway's Submits over NATS: a batch in, each command stamped on arrival, answers out.

The batch's commands are stamped with the instant the message is read, before anything
else runs, and queued in the batch's order (the link hands messages over in the order
they came). Each answer goes back as soon as its command is judged, naming its Submit by
its place in the batch: in the seats' update its command brought, when the gateway
follows the match (``ForwardedSubmit.follows``) and the update leaves in this turn (one
message for both), or else to the batch's reply subject on its own.
"""

from __future__ import annotations

from photofinish.arbitration.v1 import arbitration_pb2
from services.arbitration.intake import take_in
from services.arbitration.matches import Matches
from services.arbitration.publisher import Publisher
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.common.rejection import Rejection
from services.common.replies import Answer, Reply
from wire import subjects


class SubmitIntake:
    """Takes in the gateway's batches and sends each answer back when it is ready."""

    def __init__(self, link: NatsLink, matches: Matches, publisher: Publisher) -> None:
        self._link = link
        self._matches = matches
        self._publisher = publisher
        self._sids: list[int] = []

    def start(self, instance: str) -> None:
        """Take in the batches sent to this instance, and those for a match of unknown owner."""
        self._sids = [
            self._link.subscribe(subjects.submits(instance), self.on_batch),
            self._link.subscribe(
                subjects.SUBMITS_ANY, self.on_batch, queue=subjects.ARBITRATION_QUEUE
            ),
        ]

    def on_batch(self, message: Message) -> None:
        arrival_ns = self._matches.now()  # the instant that counts: before anything else
        batch = arbitration_pb2.Submits.FromString(message.data)
        for index, forwarded in enumerate(batch.submits):
            received_ns = forwarded.received_ns or None
            match_id = forwarded.request.match_id if forwarded.follows else ""
            reply = self._reply_to(message.reply, index, match_id)
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
                reply(rejection)

    def _reply_to(self, subject: str, index: int, riding_on: str) -> Reply:
        """Return the reply of the batch's ``index``-th Submit, sent once: with the update
        of match ``riding_on`` that leaves this turn (its gateway follows that match; ""
        when it does not), or else in a message of its own."""
        answered = False

        def reply(answer: Answer) -> None:
            nonlocal answered
            if answered or not subject:
                return
            answered = True
            if isinstance(answer, Rejection):
                sent = arbitration_pb2.SubmitAnswer(index=index, refusal=answer.to_refusal())
            else:
                sent = arbitration_pb2.SubmitAnswer(index=index, reply=answer)
            if riding_on and self._publisher.answer_with_update(riding_on, subject, sent):
                return
            data = arbitration_pb2.SubmitAnswers(answers=[sent]).SerializeToString()
            self._link.publish(subject, data)

        return reply

    def stop(self) -> None:
        for sid in self._sids:
            self._link.unsubscribe(sid)
