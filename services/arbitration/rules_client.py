"""The arbitration's port to the rules service: held calls, batched over NATS, by holder.

A rules instance holds the state of each match it serves. A match opens on any instance
(the queue subject); the answers name the instance that holds it, and every later call
about it goes to that instance's own subject. Every call made in one event-loop turn for
one instance travels in one ``HeldCalls`` request (one per match at most: a match's
worker awaits its call). When the holder does not hold the match at the version asked
about (it restarted) or is gone, the call raises :class:`NotHeld` and the caller restores
the match from its log (``restore``, on any instance). A refusal comes back as
:class:`Rejection`; no answer within ``CALL_TIMEOUT_S`` is UNAVAILABLE ``rules_unavailable``.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence

from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration.refusals import NOT_HELD, Reason, refuse
from services.common import stored_commands
from services.common.batching import Batcher, Outcome, Then
from services.common.futures import settling
from services.common.natslink.frames import Message
from services.common.natslink.requests import NoResponders, Requests
from services.common.rejection import Rejection, from_refusal
from wire import subjects

CALL_TIMEOUT_S = 2.0
# How long the answer to a stored command is waited for before it is asked for directly:
# the holder may be gone (nothing says so when the log feeds it), or the command was not
# stored (the log moved on under another instance).
JUDGE_TIMEOUT_S = 0.5


# Sends one batch to a subject now and calls back once with the reply's bytes, or with
# NoResponders or TimeoutError: NATS request/reply, or an in-process table in tests.
Request = Callable[[str, bytes, float, Callable[[bytes | BaseException], None]], None]


class NotHeld(Exception):
    """The rules instance asked does not hold the match at that version, or is gone."""


def over_nats(requests: Requests) -> Request:
    """Return the request function that sends batches as NATS requests."""

    def request(
        subject: str, data: bytes, timeout_s: float, then: Callable[[bytes | BaseException], None]
    ) -> None:
        def reply(outcome: Message | BaseException) -> None:
            then(outcome if isinstance(outcome, BaseException) else outcome.data)

        requests.send_then(subject, data, timeout_s, reply)

    return request


class Judgement:
    """The wait for the rules' answer to one stored command: ``call`` goes in its headers."""

    def __init__(self, call: dict[str, str], answer: asyncio.Future[Message]):
        self.call = call
        self._answer = answer

    async def step(self) -> rules_pb2.StepReply:
        """Return the step the rules took.

        Raises:
            TimeoutError: no answer in time (the caller asks directly instead).
            NotHeld, Rejection: as :meth:`RulesClient.apply`.
        """
        message = await self._answer
        return _step(rules_pb2.HeldAnswers.FromString(message.data).answers[0])


# Gives a new reply subject whose one message (or TimeoutError) goes to the callback:
# ``Requests.expect``, or an in-process table in a bench.
Expect = Callable[[float, Callable[[Message | BaseException], None]], str]


class RulesClient:
    """Held calls to the rules instances; refusals come back as :class:`Rejection`.

    With ``expect`` (the hot path's ``Requests.expect``), the commands this instance stores
    in the log name a reply subject of its inbox, and the rules' answers come back there
    (``judgement``).
    """

    def __init__(
        self,
        request: Request,
        timeout_s: float = CALL_TIMEOUT_S,
        expect: Expect | None = None,
    ) -> None:
        self._request = request
        self._timeout_s = timeout_s
        self._holders: dict[str, str] = {}  # match id → the rules instance holding it
        self._batchers: dict[str, Batcher[rules_pb2.HeldCall, rules_pb2.RulesAnswer]] = {}
        self._expect = expect

    def holder_of(self, match_id: str) -> str | None:
        """Return the rules instance known to hold ``match_id`` (None: none known)."""
        return self._holders.get(match_id)

    def judges_stored(self) -> bool:
        """Return whether the rules' answers to stored commands come back here."""
        return self._expect is not None

    def judgement(self, spectators: bool, resignation_only: bool) -> Judgement:
        """Start waiting for the answer to a command about to be stored; its ``call`` goes
        in the entry's headers (what to apply, and where to answer)."""
        assert self._expect is not None, "judges_stored() says when"
        answer: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        call = {stored_commands.REPLY: self._expect(JUDGE_TIMEOUT_S, settling(answer))}
        if spectators:
            call[stored_commands.SPECTATORS] = "1"
        if resignation_only:
            call[stored_commands.RESIGNATION_ONLY] = "1"
        return Judgement(call, answer)

    async def open(self, match_id: str, created: events_pb2.MatchCreated) -> rules_pb2.StepReply:
        """Deal a new match on any rules instance, which holds it from now on."""
        request = rules_pb2.NewMatchRequest(
            game=created.game, options=created.options, seed=created.seed
        )
        call = rules_pb2.HeldCall(match_id=match_id, open=request)
        return _step(await self._call(call, anywhere=True))

    async def apply(
        self,
        match_id: str,
        version: int,
        seat: int,
        command: game_pb2.Command,
        spectators: bool = False,
        resignation_only: bool = False,
    ) -> rules_pb2.StepReply:
        """Apply ``seat``'s command to the held state at ``version``.

        ``resignation_only``: apply it only if it resigns, else refuse it
        ``not_a_resignation`` (a shared device waits for its hand-over).

        Raises:
            NotHeld: the holder must be given the match again (``restore``).
            Rejection: the rules refused the command, or could not be reached.
        """
        apply = rules_pb2.HeldApply(
            seat=seat, command=command, spectators=spectators, resignation_only=resignation_only
        )
        call = rules_pb2.HeldCall(match_id=match_id, version=version, apply=apply)
        return _step(await self._call(call))

    async def forfeit(
        self,
        match_id: str,
        version: int,
        loser: int,
        termination: game_pb2.Termination.ValueType,
        spectators: bool = False,
    ) -> rules_pb2.StepReply:
        """End the match against ``loser`` (a flag). Raises as :meth:`apply`."""
        forfeit = rules_pb2.HeldForfeit(loser=loser, termination=termination, spectators=spectators)
        call = rules_pb2.HeldCall(match_id=match_id, version=version, forfeit=forfeit)
        return _step(await self._call(call))

    async def view(self, match_id: str, version: int, seat: int) -> rules_pb2.ViewReply:
        """Return ``seat``'s view (-1: spectators) of the held state. Raises as :meth:`apply`."""
        call = rules_pb2.HeldCall(
            match_id=match_id, version=version, view=rules_pb2.HeldView(seat=seat)
        )
        answer = await self._call(call)
        if answer.HasField("refusal"):
            raise _refused(answer.refusal)
        return answer.view

    async def restore(
        self,
        match_id: str,
        created: events_pb2.MatchCreated,
        steps: Sequence[rules_pb2.RestoreStep],
        spectators: bool = False,
    ) -> rules_pb2.StepReply:
        """Rebuild the match on any rules instance from its seed and logged steps."""
        match = rules_pb2.NewMatchRequest(
            game=created.game, options=created.options, seed=created.seed
        )
        restore = rules_pb2.Restore(match=match, steps=steps, spectators=spectators)
        return _step(await self._call(rules_pb2.HeldCall(match_id=match_id, restore=restore), True))

    def forget(self, match_id: str) -> None:
        """Tell the holder it may drop the match (its answer is not awaited)."""
        holder = self._holders.pop(match_id, None)
        if holder is not None:
            call = rules_pb2.HeldCall(match_id=match_id, forget=rules_pb2.Forget())
            self._batcher(subjects.rules_calls(holder)).call(call).add_done_callback(_ignored)

    async def close(self) -> None:
        for batcher in self._batchers.values():
            await batcher.close()

    async def _call(
        self, call: rules_pb2.HeldCall, anywhere: bool = False
    ) -> rules_pb2.RulesAnswer:
        holder = None if anywhere else self._holders.get(call.match_id)
        if holder is None and not anywhere:
            raise NotHeld(call.match_id)  # nobody here knows who holds it (a takeover)
        subject = subjects.RULES_CALLS if holder is None else subjects.rules_calls(holder)
        return await self._batcher(subject).call(call)

    def _batcher(self, subject: str) -> Batcher[rules_pb2.HeldCall, rules_pb2.RulesAnswer]:
        batcher = self._batchers.get(subject)
        if batcher is None:
            batcher = self._batchers[subject] = Batcher(functools.partial(self._send, subject))
        return batcher

    def _send(
        self,
        subject: str,
        batch: list[rules_pb2.HeldCall],
        then: Then[rules_pb2.RulesAnswer],
    ) -> None:
        data = rules_pb2.HeldCalls(calls=batch).SerializeToString()

        def answered(reply: bytes | BaseException) -> None:
            then(self._answers(subject, batch, reply))

        self._request(subject, data, self._timeout_s, answered)

    def _answers(
        self, subject: str, batch: list[rules_pb2.HeldCall], reply: bytes | BaseException
    ) -> Outcome[rules_pb2.RulesAnswer]:
        """Return a batch's answers (noting who holds each match), or its calls' error."""
        if isinstance(reply, NoResponders):
            if subject == subjects.RULES_CALLS:
                return _unavailable("no rules instance answers")
            for call in batch:  # the holder is gone: its matches are held nowhere now
                self._holders.pop(call.match_id, None)
            return NotHeld(subject)
        if isinstance(reply, TimeoutError):
            return _unavailable(f"no answer within {self._timeout_s:g} s")
        if isinstance(reply, BaseException):
            return reply
        answers = rules_pb2.HeldAnswers.FromString(reply)
        for call, answer in zip(batch, answers.answers, strict=False):
            if call.WhichOneof("kind") in ("open", "restore") and answer.HasField("step"):
                self._holders[call.match_id] = answers.holder
        return answers.answers


def _unavailable(why: str) -> Rejection:
    return refuse(Reason.RULES_UNAVAILABLE, f"the rules service: {why}")


def _refused(refusal: events_pb2.Refusal) -> Exception:
    return NotHeld(refusal.message) if refusal.reason == NOT_HELD else from_refusal(refusal)


def _step(answer: rules_pb2.RulesAnswer) -> rules_pb2.StepReply:
    if answer.HasField("refusal"):
        raise _refused(answer.refusal)
    return answer.step


def _ignored(answer: asyncio.Future[rules_pb2.RulesAnswer]) -> None:
    """Take the outcome of a call nobody waits for (so asyncio does not report it)."""
    if not answer.cancelled():
        answer.exception()


__all__ = ["NotHeld", "Rejection", "RulesClient"]
