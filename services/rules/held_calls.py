"""The rules service on the hot path: batches of held calls over NATS, answered in order,
and the players' commands the match log feeds it once they are stored.

The arbitration sends every call it has ready for one rules instance in an event-loop
turn as one ``HeldCalls`` request: on this instance's own subject for the matches it
holds, on the queue subject (any instance) for a new match or one to restore. Each batch
is answered in the read that brings it, by the instance's
:class:`~services.rules.held_matches.HeldMatches`; the answers name this instance, so the next calls
about the matches it stepped come here.

A player's command usually comes another way: the arbitration stores it in the match's
log (a COMMAND entry, on a subject naming this instance) and the log stream republishes it
here once it is stored. It is applied as a held call would apply it, and the answer goes
to the reply subject the entry's headers name (the storing instance's inbox). So what the
rules judge is already in the log: whatever they decide is recoverable before anyone sees
it.
"""

from __future__ import annotations

from typing import NamedTuple

from games.protowire import message_field
from photofinish.arbitration.v1 import log_pb2
from photofinish.rules.v1 import rules_pb2
from services.common.natslink.frames import Message, header_value
from services.common.natslink.link import NatsLink
from services.common.stored_commands import REPLY, RESIGNATION_ONLY, SPECTATORS
from services.common.ticker import Ticker
from services.rules.held_matches import HeldMatches
from wire import subjects

SWEEP_EVERY_S = 60.0


def answer_batch(table: HeldMatches, instance: str, data: bytes) -> bytes:
    """Return the encoded answers to an encoded batch of held calls, in the same order."""
    batch = rules_pb2.HeldCalls.FromString(data)
    return held_answers(instance, [table.encoded_answer(call) for call in batch.calls])


def held_answers(instance: str, answers: list[bytes]) -> bytes:
    """Return an encoded ``HeldAnswers`` of encoded answers (joined, not decoded again)."""
    holder = message_field(_HOLDER, instance.encode())
    return holder + b"".join(message_field(_ANSWERS, answer) for answer in answers)


_HOLDER = rules_pb2.HeldAnswers.DESCRIPTOR.fields_by_name["holder"].number
_ANSWERS = rules_pb2.HeldAnswers.DESCRIPTOR.fields_by_name["answers"].number


class StoredAnswer(NamedTuple):
    """The answer to a stored command: the reply subject it names, the encoded answer."""

    subject: str
    data: bytes


def answer_stored(
    table: HeldMatches, instance: str, data: bytes, headers: bytes
) -> StoredAnswer | None:
    """Return the answer to a COMMAND entry the log fed this instance (None: it names
    nobody to answer, or is not a command)."""
    reply = header_value(headers, REPLY)
    if not reply:
        return None
    entry = log_pb2.LogEntry.FromString(data)
    if entry.kind != log_pb2.ENTRY_KIND_COMMAND:
        return None
    answer = table.encoded_apply(
        entry.match_id,
        entry.version,
        entry.seat,
        entry.command,
        spectators=header_value(headers, SPECTATORS) is not None,
        resignation_only=header_value(headers, RESIGNATION_ONLY) is not None,
    )
    return StoredAnswer(reply, held_answers(instance, [answer]))


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
        self._link.subscribe(subjects.judge(self._instance), self._on_stored)
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

    def _on_stored(self, message: Message) -> None:
        answer = answer_stored(self._table, self._instance, message.data, message.headers)
        if answer is not None:
            self._link.publish(answer.subject, answer.data)
