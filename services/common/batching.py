"""One message per peer per event-loop turn: calls made in the same turn travel together.

A :class:`Batcher` collects the calls made while the event loop runs its ready callbacks,
and at the end of that turn hands them, in the order they were made, to one ``send``,
which later calls back once with one answer per call (or the error that is every call's
answer). Each caller awaits only its own answer. At light load a batch holds one call and
costs what a single call costs; under load one message (one request, one parse, one
wake-up on each side) carries many. Nothing here waits in a task of its own: the answers
are handed out in the callback that brings them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Q = TypeVar("Q")
A = TypeVar("A")

# The answers to a batch (one per call, in order), or the error that answers every call.
Outcome = Sequence[A] | BaseException
# Sends a batch now, and calls ``then`` once with its outcome, later.
Send = Callable[[list[Q], Callable[[Outcome[A]], None]], None]


class Batcher(Generic[Q, A]):
    """Gathers calls into one ``send`` per event-loop turn."""

    def __init__(self, send: Send[Q, A], max_batch: int = 512) -> None:
        self._send = send
        self._max_batch = max_batch
        self._calls: list[Q] = []
        self._answers: list[asyncio.Future[A]] = []
        self._in_flight = 0
        self._idle: asyncio.Event | None = None

    def call(self, request: Q) -> asyncio.Future[A]:
        """Queue ``request`` for this turn's batch; the future gets its answer."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[A] = loop.create_future()
        if not self._calls:
            loop.call_soon(self._flush)
        self._calls.append(request)
        self._answers.append(answer)
        if len(self._calls) >= self._max_batch:
            self._flush()
        return answer

    def _flush(self) -> None:
        if not self._calls:
            return  # already sent: the batch filled up before its turn ended
        calls, answers = self._calls, self._answers
        self._calls, self._answers = [], []
        self._in_flight += 1

        def settle(outcome: Outcome[A]) -> None:
            self._in_flight -= 1
            if self._in_flight == 0 and self._idle is not None:
                self._idle.set()
            if not isinstance(outcome, BaseException) and len(outcome) != len(calls):
                outcome = ValueError(f"{len(outcome)} answers to {len(calls)} calls")
            for index, answer in enumerate(answers):
                if answer.done():
                    continue  # its caller gave up (cancelled) meanwhile
                if isinstance(outcome, BaseException):
                    answer.set_exception(outcome)
                else:
                    answer.set_result(outcome[index])

        try:
            self._send(calls, settle)
        except Exception as error:  # every caller hears of it; nothing is lost in here
            settle(error)

    async def close(self) -> None:
        """Wait for the answers to the batches already sent."""
        if self._in_flight:
            self._idle = asyncio.Event()
            await self._idle.wait()
