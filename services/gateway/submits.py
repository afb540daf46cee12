"""Submit, forwarded to the match's arbitration instance over NATS, in batches.

Every Submit the gateway has for one instance in an event-loop turn leaves as one
``Submits`` message with a reply subject of its own (``<inbox>.<batch number>``); the
instance answers each command as soon as it is judged (``SubmitAnswers``, naming each by
its place in the batch). When no instance listens on the subject, NATS itself answers the
reply subject at once with a "no responders" status: every Submit of that batch is then
UNAVAILABLE, worth sending again (the match's new owner will be found). Answers are read
on the hot path's link (``services/common/natslink``), each settling its Submit as it
arrives.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
from collections.abc import Iterable

import grpc
import nats.errors

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.batching import Batcher, Then
from services.common.futures import settling
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import NO_RESPONDERS
from services.common.placement import Directory
from services.common.rejection import Rejection, from_refusal
from services.common.replies import Answer, Reply
from services.gateway.ratelimit import CommandRate
from wire import subjects

log = logging.getLogger(__name__)

SUBMIT_TIMEOUT_S = 10.0  # a command waits behind its match's queue and one rules call


def _unavailable(why: str) -> Rejection:
    return Rejection(grpc.StatusCode.UNAVAILABLE, "arbitration_unavailable", why)


class SubmitForwarder:
    """Sends Submits to the instance that runs each match and hands back each answer."""

    def __init__(
        self, link: NatsLink, directory: Directory, rate: CommandRate | None = None
    ) -> None:
        self._rate = rate or CommandRate()
        self._link = link
        self._directory = directory
        self._inbox = link.new_inbox()
        self._prefix = f"{self._inbox}."  # of each batch's reply subject
        self._cut = len(self._prefix)
        self._numbers = itertools.count()
        # By subject: the batch of this turn's Submits for one instance (services/common/
        # batching.py); by batch number, what takes a sent batch's answers, and its timer.
        self._batchers: dict[str, Batcher[arbitration_pb2.ForwardedSubmit, Answer]] = {}
        self._waiting: dict[str, tuple[Then[Answer], asyncio.TimerHandle]] = {}
        self._sid: int | None = None

    def start(self) -> None:
        self._sid = self._link.subscribe(f"{self._inbox}.*", self._on_answers)

    def stop(self) -> None:
        if self._sid is not None:
            self._link.unsubscribe(self._sid)

    async def submit(
        self, request: arbitration_pb2.SubmitRequest, player_id: str, received_ns: int
    ) -> arbitration_pb2.SubmitReply:
        """Return the arbitration's reply to the command.

        Raises:
            Rejection: the arbitration's refusal, or UNAVAILABLE when it cannot be reached.
        """
        answer: asyncio.Future[arbitration_pb2.SubmitReply] = self._link.loop.create_future()
        subject = await self.subject_for(request.match_id)
        self.forward(request, player_id, received_ns, settling(answer), subject)
        return await answer

    def forward(
        self,
        request: arbitration_pb2.SubmitRequest,
        player_id: str,
        received_ns: int,
        reply: Reply,
        subject: str,
        follows: bool = False,
    ) -> None:
        """Send the command on ``subject`` with this turn's others; ``reply`` gets its
        answer (in the read that brings it) or its refusal, exactly once. A player over the
        command rate is refused here (``ratelimit``), and nothing is sent. ``follows``: this
        gateway follows the match's seats while the command waits (a play socket's), so
        its answer may come with the update it brings (``settle``)."""
        try:
            self._rate.check(player_id)
        except Rejection as over:
            reply(over)
            return
        forwarded = arbitration_pb2.ForwardedSubmit(
            request=request, player_id=player_id, received_ns=received_ns, follows=follows
        )
        batcher = self._batchers.get(subject)
        if batcher is None:
            batcher = self._batchers[subject] = Batcher(functools.partial(self._send, subject))
        batcher.add(forwarded, functools.partial(_settle, reply))

    async def subject_for(self, match_id: str) -> str:
        """Return the subject that reaches the instance running ``match_id`` now."""
        try:
            instance = await self._directory.owner_of(match_id)
        except nats.errors.Error as error:  # NATS trouble: any instance may know the match
            log.warning("owner lookup failed", extra={"fields": {"why": repr(error)}})
            instance = None
        return subjects.SUBMITS_ANY if instance is None else subjects.submits(instance)

    def _send(
        self, subject: str, batch: list[arbitration_pb2.ForwardedSubmit], then: Then[Answer]
    ) -> None:
        number = str(next(self._numbers))
        give_up = self._link.loop.call_later(SUBMIT_TIMEOUT_S, self._time_out, number)
        self._waiting[number] = (then, give_up)
        data = arbitration_pb2.Submits(submits=batch).SerializeToString()
        self._link.publish(subject, data, reply=f"{self._inbox}.{number}")

    def _on_answers(self, message: Message) -> None:
        if message.status != NO_RESPONDERS:
            answers = arbitration_pb2.SubmitAnswers.FromString(message.data).answers
            self.settle(message.subject, answers)
            return
        number = message.subject[self._cut :]
        waiting = self._waiting.get(number)
        if waiting is not None and waiting[0](
            _unavailable("no arbitration instance runs this match now")
        ):
            self._forget(number)

    def settle(self, reply_subject: str, answers: Iterable[arbitration_pb2.SubmitAnswer]) -> None:
        """Settle the Submits of the batch sent with ``reply_subject`` that ``answers`` name,
        however they came (their own message, or with an update: ``followed_matches.py``);
        answers to another gateway's batch, or to one given up on, change nothing."""
        if not reply_subject.startswith(self._prefix):
            return
        number = reply_subject[self._cut :]
        waiting = self._waiting.get(number)
        if waiting is None:
            return  # answers to a batch given up on
        answered = waiting[0](
            {
                answer.index: from_refusal(answer.refusal)
                if answer.HasField("refusal")
                else answer.reply
                for answer in answers
            }
        )
        if answered:
            self._forget(number)

    def _time_out(self, number: str) -> None:
        waiting = self._waiting.pop(number, None)
        if waiting is not None:
            waiting[0](_unavailable(f"no answer within {SUBMIT_TIMEOUT_S:g} s"))

    def _forget(self, number: str) -> None:
        waiting = self._waiting.pop(number, None)
        if waiting is not None:
            waiting[1].cancel()  # an armed timer would wake this process for nothing


def _settle(reply: Reply, outcome: Answer | BaseException) -> None:
    """Give ``reply`` a batch's answer to its Submit; an error that is no refusal (the
    batch could not be sent) is an UNAVAILABLE one."""
    if isinstance(outcome, BaseException) and not isinstance(outcome, Rejection):
        outcome = _unavailable(f"the Submit could not be sent: {outcome!r}")
    reply(outcome)
