"""One message per peer per event-loop turn: calls made in the same turn travel together.

A :class:`Batcher` collects the calls made while the event loop runs its ready callbacks,
and at the end of that turn hands them, in the order they were made, to one ``send``.
The peer answers later through the ``then`` it was given: every call's answer at once (a
sequence, in order), some of them by their place in the batch (a mapping; the rest come
in later messages), or the error that answers every call still waiting. Each caller hears
only its own answer: a future to await (``call``), or a callback run in the read that
brings it (``add``). At light load a batch holds one call and costs what a single call
costs; under load one message (one request, one parse, one wake-up on each side) carries
many. Nothing here waits in a task of its own.

The arbitration's calls to the rules service are answered a batch at a time; the
gateway's Submits to the arbitration one by one, as each command is judged.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

from services.common.futures import settling

Q = TypeVar("Q")
A = TypeVar("A")

# The answers to a batch: all of them, in order; some, by their place (each an answer or
# that call's error); or the error that answers every call still waiting.
Outcome = Sequence[A] | dict[int, A | BaseException] | BaseException
# Takes an outcome of the batch; returns whether every call of it is answered now.
Then = Callable[[Outcome[A]], bool]
# Sends a batch now; ``then`` takes its outcome, later, as often as answers come.
Send = Callable[[list[Q], Then[A]], None]
# One call's answer, or its error, delivered once.
Settle = Callable[[A | BaseException], None]


class Batcher(Generic[Q, A]):
    """Gathers calls into one ``send`` per event-loop turn."""

    def __init__(self, send: Send[Q, A], max_batch: int = 512) -> None:
        self._send = send
        self._max_batch = max_batch
        self._calls: list[Q] = []
        self._settles: list[Settle[A]] = []
        self._in_flight = 0
        self._idle: asyncio.Event | None = None

    def call(self, request: Q) -> asyncio.Future[A]:
        """Queue ``request`` for this turn's batch; the future gets its answer."""
        answer: asyncio.Future[A] = asyncio.get_running_loop().create_future()
        self.add(request, settling(answer))
        return answer

    def add(self, request: Q, settle: Settle[A]) -> None:
        """Queue ``request`` for this turn's batch; ``settle`` gets its answer, once."""
        if not self._calls:
            asyncio.get_running_loop().call_soon(self._flush)
        self._calls.append(request)
        self._settles.append(settle)
        if len(self._calls) >= self._max_batch:
            self._flush()

    def _flush(self) -> None:
        if not self._calls:
            return  # already sent: the batch filled up before its turn ended
        calls = self._calls
        waiting: list[Settle[A] | None] = list(self._settles)
        self._calls, self._settles = [], []
        self._in_flight += 1
        unanswered = len(calls)

        def then(outcome: Outcome[A]) -> bool:
            nonlocal unanswered
            if not unanswered:
                return True  # answered already: a late or repeated message
            answers: Iterable[tuple[int, A | BaseException]]
            # Concrete types only: an isinstance against an ABC (Mapping, Sequence) is a call
            # into abc for every answer message.
            if isinstance(outcome, BaseException):
                answers = ((index, outcome) for index in range(len(calls)))
            elif isinstance(outcome, dict):
                answers = outcome.items()
            elif len(outcome) != len(calls):
                wrong = ValueError(f"{len(outcome)} answers to {len(calls)} calls")
                answers = ((index, wrong) for index in range(len(calls)))
            else:
                answers = enumerate(outcome)
            for index, answer in answers:
                settle = waiting[index] if 0 <= index < len(waiting) else None
                if settle is not None:
                    waiting[index] = None
                    unanswered -= 1
                    settle(answer)
            if unanswered:
                return False
            self._in_flight -= 1
            if self._in_flight == 0 and self._idle is not None:
                self._idle.set()
            return True

        try:
            self._send(calls, then)
        except Exception as error:  # every caller hears of it; nothing is lost in here
            then(error)

    async def close(self) -> None:
        """Wait for the answers to the batches already sent."""
        if self._in_flight:
            self._idle = asyncio.Event()
            await self._idle.wait()
