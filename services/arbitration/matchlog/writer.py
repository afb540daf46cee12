"""The arbitration log's writer: each match's entries appended to JetStream, in order, fenced.

The log is the durable record of a match. The match's worker appends an entry and waits for the
stream's acknowledgement before it changes the match by it or shows anything of it, so
what a player saw is in the log, and a takeover reads it back (docs/failover.md).

- **In order, once.** A match's entries are appended one at a time (its worker waits
  for each), numbered from 0 without gaps. A failed append is retried with backoff under
  the same ``Nats-Msg-Id`` (``<match id>.<index>``), so the stream stores it once.
- **Fenced.** Each append names the stream sequence of the match's last stored entry
  (``Nats-Expected-Last-Subject-Sequence``), the one this writer stored or, for a match
  taken over, the one it read. When another instance has appended since (it took the
  match over while this one was stopped), the stream refuses, and this writer raises
  :class:`Superseded`: the entry never counted and nothing of it is shown.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import nats.errors
from nats.js import JetStreamContext
from prometheus_client import Counter, Gauge, Histogram

from photofinish.arbitration.v1 import log_pb2
from services.arbitration.match import Match
from services.arbitration.matchlog.bounds import is_full
from services.common.matchlogs import Stored, read_log
from services.common.metrics import LATENCY_BUCKETS_S
from services.common.natslink.frames import header_block
from services.common.natslink.requests import Requests
from services.common.natsmetrics import StreamPublishes
from wire import subjects

log = logging.getLogger("arbitration")
T = TypeVar("T")

APPEND_TIMEOUT_S = 2.0
RETRY_FIRST_S = 0.05
RETRY_MAX_S = 1.0
WRONG_LAST_SEQUENCE = 10071  # JetStream's error code for a failed expected-sequence check

ENTRIES = Counter("pf_log_entries_total", "Arbitration log entries recorded, by kind", ["kind"])
_ENTRIES_BY_KIND = {kind: ENTRIES.labels(name) for name, kind in log_pb2.EntryKind.items()}
APPEND_ERRORS = Counter("pf_log_append_errors_total", "Failed appends to the log (retried)")
BACKLOG = Gauge("pf_log_backlog_entries", "Log entries sent to the stream and not yet stored")
# pf_jetstream_publish_*{stream="PF_MATCH_LOG"}: each append's try, the stream's answer.
LOG_PUBLISHES = StreamPublishes(subjects.LOG_STREAM)
STORE_SECONDS = Histogram(
    "pf_log_store_seconds",
    "From an entry's append to its acknowledgement by the stream: what every change waits",
    buckets=LATENCY_BUCKETS_S,
)


class Superseded(Exception):
    """Another instance appended to the match's log: it runs the match now."""


class AppendRefused(ConnectionError):
    """The stream refused an entry for another reason (retried: it may be passing)."""


class Store(Protocol):
    """Where entries go and come back from."""

    async def put(self, match_id: str, index: int, data: bytes, after_seq: int) -> int:
        """Store an entry after the one at stream sequence ``after_seq``; return its own.

        Raises:
            Superseded: when the match's last stored entry is not the one at ``after_seq``.
        """
        ...

    async def read(self, match_id: str) -> Stored:
        """Return the match's stored entries."""
        ...


class StreamStore:
    """The JetStream stream ``PF_MATCH_LOG``, one subject per match.

    Appends go over the hot path's link (a publish to the stream's subject whose reply is
    the stream's acknowledgement); reads, rare, through nats-py's JetStream API.
    """

    def __init__(self, requests: Requests, js: JetStreamContext) -> None:
        self._requests = requests
        self._js = js

    async def put(self, match_id: str, index: int, data: bytes, after_seq: int) -> int:
        subject = subjects.match_log(match_id)
        headers = header_block(
            {
                "Nats-Msg-Id": f"{match_id}.{index}",
                "Nats-Expected-Stream": subjects.LOG_STREAM,
                "Nats-Expected-Last-Subject-Sequence": str(after_seq),
            }
        )
        started = time.perf_counter()
        try:
            reply = await self._requests.send(subject, data, APPEND_TIMEOUT_S, headers)
        except Exception:
            LOG_PUBLISHES.errors.inc()
            raise
        ack = json.loads(reply.data)
        error = ack.get("error")
        if error is None:
            LOG_PUBLISHES.seconds.observe(time.perf_counter() - started)
            return int(ack["seq"])
        if error.get("err_code") != WRONG_LAST_SEQUENCE:
            LOG_PUBLISHES.errors.inc()
            raise AppendRefused(f"the log stream refused an entry: {error}")
        # The stream checks the sequence before it drops a repeat: a retry of an entry
        # whose first append was stored (its ack lost) finds itself last. Anything else
        # last is another instance's entry.
        last = await self._js.get_last_msg(subjects.LOG_STREAM, subject)
        if last.data != data or last.seq is None:
            raise Superseded(match_id)
        return last.seq

    async def read(self, match_id: str) -> Stored:
        return await read_log(self._js, match_id)


class MemoryStore:
    """Entries kept in memory, by match (tests; a worker built without a log)."""

    def __init__(self, keep: bool = True) -> None:
        self.logs: dict[str, list[bytes]] = {}
        self._keep = keep
        self._last_seq: dict[str, int] = {}
        self._seq = 0

    async def put(self, match_id: str, index: int, data: bytes, after_seq: int) -> int:
        if self._last_seq.get(match_id, 0) != after_seq:
            raise Superseded(match_id)
        self._seq += 1
        self._last_seq[match_id] = self._seq
        if self._keep:
            self.logs.setdefault(match_id, []).append(data)
        return self._seq

    async def read(self, match_id: str) -> Stored:
        return Stored(self.entries(match_id), self._last_seq.get(match_id, 0))

    def entries(self, match_id: str) -> list[log_pb2.LogEntry]:
        """Return a match's stored entries, decoded."""
        return [log_pb2.LogEntry.FromString(data) for data in self.logs.get(match_id, [])]


@dataclass(slots=True, eq=False)
class _Tail:
    """One match's end of the log: the next index and the stream sequence of the last entry."""

    next_index: int = 0
    last_seq: int = 0


class LogWriter:
    """Appends each match's entries in the order the match's worker decides them."""

    def __init__(self, store: Store, instance: str = "", entries_per_match: int = 0) -> None:
        self._store = store
        self.instance = instance
        self._entries_per_match = entries_per_match  # the stream's limit; 0: none
        self._tails: dict[str, _Tail] = {}

    @classmethod
    def discarding(cls) -> LogWriter:
        """Return a writer that keeps nothing (a worker built without a log)."""
        return cls(MemoryStore(keep=False))

    def begin(self, match_id: str) -> None:
        """Start the log of a match that is opening here: its header comes first."""
        self._tails[match_id] = _Tail()

    def resume(self, match_id: str, stored: Stored) -> None:
        """Continue the log of a match taken over, after the entries read back."""
        self._tails[match_id] = _Tail(len(stored.entries), stored.last_seq)

    def is_full(self, match_id: str) -> bool:
        """Return whether the match's log has room for nothing but its end."""
        tail = self._tails.get(match_id)
        if tail is None or not self._entries_per_match:
            return False
        return is_full(tail.next_index, self._entries_per_match)

    async def append(self, match: Match, entry: log_pb2.LogEntry) -> None:
        """Store ``entry`` as the match's next one; return once the stream has it.

        Raises:
            Superseded: another instance appended to this match's log meanwhile.
        """
        tail = self._tails[match.match_id]
        entry.index = tail.next_index
        data = entry.SerializeToString()
        started = time.perf_counter()
        BACKLOG.inc()
        try:
            tail.last_seq = await self._retried(
                self._store.put, match.match_id, entry.index, data, tail.last_seq
            )
        finally:
            BACKLOG.dec()
        tail.next_index += 1
        STORE_SECONDS.observe(time.perf_counter() - started)
        _ENTRIES_BY_KIND[entry.kind].inc()

    async def read(self, match_id: str) -> Stored:
        """Return the match's stored entries (retried until the store answers)."""
        return await self._retried(self._store.read, match_id)

    def forget(self, match_id: str) -> None:
        """Drop a match the arbitration let go of."""
        self._tails.pop(match_id, None)

    async def _retried(self, call: Callable[..., Awaitable[T]], match_id: str, *args: Any) -> T:
        """Return ``call(match_id, *args)``, retried until the store answers.

        An entry is retried under the same Nats-Msg-Id, so it is stored once and the
        match's next entry waits: the log never has a hole or a swap.
        """
        delay_s = RETRY_FIRST_S
        while True:
            try:
                return await call(match_id, *args)
            except (nats.errors.Error, OSError) as error:
                APPEND_ERRORS.inc()
                log.warning(
                    "log store failed; retrying",
                    extra={"fields": {"match": match_id, "error": repr(error)}},
                )
                await asyncio.sleep(delay_s)
                delay_s = min(RETRY_MAX_S, delay_s * 2)
