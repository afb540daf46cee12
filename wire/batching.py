"""One message per peer per event-loop turn: calls made in the same turn travel together.

A :class:`Batcher` collects the calls made while the event loop runs its ready callbacks,
and at the end of that turn hands them, in the order they were made, to one ``send``
that returns one answer per call. Each caller awaits only its own answer. At light load a
batch holds one call and costs what a single call costs; under load one message (one
NATS request, one parse, one wake-up on each side) carries many.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Generic, TypeVar

Q = TypeVar("Q")
A = TypeVar("A")

# Sends a batch and returns its answers, one per call and in the same order. An exception
# it raises (the peer unreachable, say) is every call's answer.
Send = Callable[[list[Q]], Awaitable[Sequence[A]]]


class Batcher(Generic[Q, A]):
    """Gathers calls into one ``send`` per event-loop turn."""

    def __init__(self, send: Send[Q, A], max_batch: int = 512) -> None:
        self._send = send
        self._max_batch = max_batch
        self._calls: list[Q] = []
        self._answers: list[asyncio.Future[A]] = []
        self._flushing: set[asyncio.Task[None]] = set()

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
        task = asyncio.get_running_loop().create_task(self._deliver(calls, answers))
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def _deliver(self, calls: list[Q], answers: list[asyncio.Future[A]]) -> None:
        try:
            results = await self._send(calls)
            if len(results) != len(calls):
                raise ValueError(f"{len(results)} answers to {len(calls)} calls")
        except Exception as error:  # every caller hears of it; nothing is lost in here
            for answer in answers:
                if not answer.done():
                    answer.set_exception(error)
            return
        except asyncio.CancelledError:
            for answer in answers:
                answer.cancel()
            raise
        for answer, result in zip(answers, results, strict=True):
            if not answer.done():  # its caller may have given up (cancelled) meanwhile
                answer.set_result(result)

    async def close(self) -> None:
        """Wait for the batches already sent."""
        if self._flushing:
            await asyncio.gather(*self._flushing, return_exceptions=True)


class Coalescer(Generic[Q]):
    """Gathers items by key into one ``flush(key, items)`` per key per event-loop turn.

    For messages that expect no answer of their own (answers going back, say): the items
    queued in one turn for the same key leave together, in the order they were queued.
    """

    def __init__(self, flush: Callable[[str, list[Q]], Coroutine[Any, Any, None]]) -> None:
        self._flush = flush
        self._waiting: dict[str, list[Q]] = {}
        self._flushing: set[asyncio.Task[None]] = set()

    def add(self, key: str, item: Q) -> None:
        """Queue ``item`` to leave with the others queued for ``key`` this turn."""
        if not self._waiting:
            asyncio.get_running_loop().call_soon(self._send)
        self._waiting.setdefault(key, []).append(item)

    def _send(self) -> None:
        waiting, self._waiting = self._waiting, {}
        loop = asyncio.get_running_loop()
        for key, items in waiting.items():
            task = loop.create_task(self._flush(key, items))
            self._flushing.add(task)
            task.add_done_callback(self._flushing.discard)

    async def close(self) -> None:
        """Wait for what was already handed to ``flush``."""
        if self._flushing:
            await asyncio.gather(*self._flushing, return_exceptions=True)
