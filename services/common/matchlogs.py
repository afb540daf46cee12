"""Reading a match's arbitration log back from JetStream (the ``PF_MATCH_LOG`` stream:
one subject per match, and the match's stored commands on their own), for whoever is
allowed to: the arbitration, and the ratings service's fair-play reader, which measures a
finished rated match's reactions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import nats.js.errors
from nats.js import JetStreamContext, api

from photofinish.arbitration.v1 import log_pb2
from services.common.jsretry import until_done
from wire import subjects

FETCH_BATCH = 512
FETCH_TIMEOUT_S = 2.0
READ_RETRY_S = 30.0  # a log stream between leaders answers within a few seconds
CLOSING = frozenset({log_pb2.ENTRY_KIND_FINISHED, log_pb2.ENTRY_KIND_VOIDED})
COMMAND = log_pb2.ENTRY_KIND_COMMAND


@dataclass(frozen=True, slots=True)
class Stored:
    """A match's stored entries in order, and the stream sequence of the last one (0: none)."""

    entries: Sequence[log_pb2.LogEntry]
    last_seq: int


def in_order(stored: Iterable[log_pb2.LogEntry]) -> list[log_pb2.LogEntry]:
    """Return the entries by index from 0, each once, up to the first missing index.

    A judged entry carried by another (``judged``) comes out before it, in the place of
    the COMMAND it judged; a COMMAND nothing judged yet stays (the last of a live log).
    """
    by_index: dict[int, log_pb2.LogEntry] = {}
    for entry in unpacked(stored):
        known = by_index.get(entry.index)
        if known is None or (known.kind == COMMAND and entry.kind != COMMAND):
            by_index[entry.index] = entry
    ordered: list[log_pb2.LogEntry] = []
    while len(ordered) in by_index:
        ordered.append(by_index[len(ordered)])
    return ordered


def unpacked(stored: Iterable[log_pb2.LogEntry]) -> Iterator[log_pb2.LogEntry]:
    """Return the stored entries with each carried judged entry before its carrier."""
    for entry in stored:
        if entry.HasField("judged"):
            judged = log_pb2.LogEntry()
            judged.CopyFrom(entry.judged)
            entry.ClearField("judged")
            yield judged
        yield entry


def is_closed(log: Sequence[log_pb2.LogEntry]) -> bool:
    """Return whether the log holds its match's last entry."""
    return any(entry.kind in CLOSING for entry in log)


async def read_entries(
    js: JetStreamContext, match_id: str, within_s: float = READ_RETRY_S
) -> list[log_pb2.LogEntry]:
    """Return the match's stored entries in order ([] when there are none)."""
    return list((await read_log(js, match_id, within_s)).entries)


async def read_log(js: JetStreamContext, match_id: str, within_s: float = READ_RETRY_S) -> Stored:
    """Return the match's stored entries in order, with the last one's stream sequence
    (read again from the start, for ``within_s``, while the log stream is between leaders)."""
    return await until_done(f"log of {match_id}", lambda: _read_log(js, match_id), within_s)


async def _read_log(js: JetStreamContext, match_id: str) -> Stored:
    subject = subjects.match_log(match_id)
    config = api.ConsumerConfig(
        filter_subjects=[subject, subjects.match_commands_any(match_id)],
        deliver_policy=api.DeliverPolicy.ALL,
        ack_policy=api.AckPolicy.NONE,
        inactive_threshold=10.0,
        mem_storage=True,
    )
    sub = await js.pull_subscribe("", stream=subjects.LOG_STREAM, config=config)
    try:
        info = await sub.consumer_info()
        left = info.num_pending or 0
        stored, last_seq = [], 0
        while left > 0:
            messages = await sub.fetch(min(left, FETCH_BATCH), timeout=FETCH_TIMEOUT_S)
            stored += [log_pb2.LogEntry.FromString(m.data) for m in messages]
            # The fence is the log subject's last entry (a stored command is not on it).
            on_log = (m.metadata.sequence.stream for m in messages if m.subject == subject)
            last_seq = max([last_seq, *on_log])
            left -= len(messages)
        return Stored(in_order(stored), last_seq)
    finally:
        await sub.unsubscribe()
        if config.name:  # pull_subscribe named the ephemeral consumer it made
            with contextlib.suppress(nats.js.errors.NotFoundError):
                await js.delete_consumer(subjects.LOG_STREAM, config.name)
