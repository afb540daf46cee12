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
import itertools
import logging

import grpc
import nats.errors

from photofinish.arbitration.v1 import arbitration_pb2
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import NO_RESPONDERS
from services.common.placement import Directory
from services.common.rejection import Rejection, from_refusal
from wire import subjects

log = logging.getLogger(__name__)

SUBMIT_TIMEOUT_S = 10.0  # a command waits behind its match's queue and one rules call

Waiting = asyncio.Future[arbitration_pb2.SubmitReply]


def _unavailable(why: str) -> Rejection:
    return Rejection(grpc.StatusCode.UNAVAILABLE, "arbitration_unavailable", why)


class SubmitForwarder:
    """Sends Submits to the instance that runs each match and hands back each answer."""

    def __init__(self, link: NatsLink, directory: Directory) -> None:
        self._link = link
        self._directory = directory
        self._inbox = link.new_inbox()
        self._cut = len(self._inbox) + 1
        self._numbers = itertools.count()
        # By batch number: each Submit's future, by its place in the batch.
        self._waiting: dict[str, list[Waiting]] = {}
        self._give_up: dict[str, asyncio.TimerHandle] = {}
        # By subject: this turn's Submits, sent together at its end.
        self._outgoing: dict[str, list[tuple[arbitration_pb2.ForwardedSubmit, Waiting]]] = {}
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
        subject = await self._subject(request.match_id)
        forwarded = arbitration_pb2.ForwardedSubmit(
            request=request, player_id=player_id, received_ns=received_ns
        )
        loop = self._link.loop
        answer: Waiting = loop.create_future()
        if not self._outgoing:
            loop.call_soon(self._send_all)
        self._outgoing.setdefault(subject, []).append((forwarded, answer))
        return await answer

    async def _subject(self, match_id: str) -> str:
        try:
            instance = await self._directory.owner_of(match_id)
        except nats.errors.Error as error:  # NATS trouble: any instance may know the match
            log.warning("owner lookup failed", extra={"fields": {"why": repr(error)}})
            instance = None
        return subjects.SUBMITS_ANY if instance is None else subjects.submits(instance)

    def _send_all(self) -> None:
        outgoing, self._outgoing = self._outgoing, {}
        for subject, batch in outgoing.items():
            number = str(next(self._numbers))
            self._waiting[number] = [answer for _, answer in batch]
            self._give_up[number] = self._link.loop.call_later(
                SUBMIT_TIMEOUT_S, self._time_out, number
            )
            data = arbitration_pb2.Submits(submits=[f for f, _ in batch]).SerializeToString()
            self._link.publish(subject, data, reply=f"{self._inbox}.{number}")

    def _on_answers(self, message: Message) -> None:
        number = message.subject[self._cut :]
        if message.status == NO_RESPONDERS:
            self._fail(number, _unavailable("no arbitration instance runs this match now"))
            return
        waiting = self._waiting.get(number)
        if waiting is None:
            return  # answers to a batch given up on
        for answer in arbitration_pb2.SubmitAnswers.FromString(message.data).answers:
            if answer.index >= len(waiting) or waiting[answer.index].done():
                continue
            future = waiting[answer.index]
            if answer.HasField("refusal"):
                future.set_exception(from_refusal(answer.refusal))
            else:
                future.set_result(answer.reply)
        if all(future.done() for future in waiting):
            self._forget(number)

    def _time_out(self, number: str) -> None:
        self._fail(number, _unavailable(f"no answer within {SUBMIT_TIMEOUT_S:g} s"))

    def _fail(self, number: str, rejection: Rejection) -> None:
        """End batch ``number``: every Submit still waiting gets ``rejection``."""
        for future in self._waiting.get(number, []):
            if not future.done():
                future.set_exception(rejection)
        self._forget(number)

    def _forget(self, number: str) -> None:
        self._waiting.pop(number, None)
        give_up = self._give_up.pop(number, None)
        if give_up is not None:
            give_up.cancel()  # an armed timer would wake this process for nothing
