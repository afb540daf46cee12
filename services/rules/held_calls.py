"""The rules service on the hot path: batches of held calls over NATS, answered in order.

The arbitration sends every call it has ready for one rules instance in an event-loop
turn as one ``HeldCalls`` request: on this instance's own subject for the matches it
holds, on the queue subject (any instance) for a new match or one to restore. Each batch
is answered in the read that brings it, by the instance's
:class:`~services.rules.held_matches.HeldMatches`; the answers name this instance, so the next calls
about the matches it stepped come here.
"""

from __future__ import annotations

from photofinish.rules.v1 import rules_pb2
from services.common.natslink.frames import Message
from services.common.natslink.link import NatsLink
from services.common.ticker import Ticker
from services.rules.held_matches import HeldMatches
from wire import subjects

SWEEP_EVERY_S = 60.0


def answer_batch(table: HeldMatches, instance: str, data: bytes) -> bytes:
    """Return the encoded answers to an encoded batch of held calls, in the same order."""
    batch = rules_pb2.HeldCalls.FromString(data)
    answers = [table.answer(call) for call in batch.calls]
    return rules_pb2.HeldAnswers(holder=instance, answers=answers).SerializeToString()


class HeldCallServer:
    """Answers the arbitration's batches for ``table`` until stopped."""

    def __init__(self, link: NatsLink, table: HeldMatches, instance: str) -> None:
        self._link = link
        self._table = table
        self._instance = instance
        self._sweeper = Ticker(lambda: SWEEP_EVERY_S, self._sweep)

    def start(self) -> None:
        on_batch = self._on_batch
        self._link.subscribe(subjects.rules_calls(self._instance), on_batch)
        self._link.subscribe(subjects.RULES_CALLS, on_batch, queue=subjects.RULES_QUEUE)
        self._sweeper.start()

    def stop(self) -> None:
        self._sweeper.stop()

    def _sweep(self, due_ns: int, ran_ns: int) -> None:
        self._table.drop_idle()

    def _on_batch(self, message: Message) -> None:
        if message.reply:
            self._link.publish(
                message.reply, answer_batch(self._table, self._instance, message.data)
            )
