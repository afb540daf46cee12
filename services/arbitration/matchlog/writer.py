"""The arbitration log's writer: each match's entries, in order, appended to JetStream.

The referee calls the recording methods as it decides; they build the entry and queue it,
nothing more, so a command's answer never waits for storage. One writer task per match
(started when entries are waiting, gone when none are) numbers them and appends them one
at a time, waiting for each acknowledgement, so a match's entries reach the stream in
order, each exactly once (a retry reuses the entry's Nats-Msg-Id). A match this process
did not open (taken over from another instance) continues its log after the last stored
entry. When a match ends, ``seal`` appends its last entry and waits until every entry is
stored: the result is published only after that, so a finished match has its whole log.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import nats.errors
import nats.js.errors
from nats.js import JetStreamContext
from prometheus_client import Counter, Gauge, Histogram

from photofinish.arbitration.v1 import log_pb2
from services.arbitration.match import Answer, Match, Submission
from services.arbitration.matchlog import entries
from services.common.metrics import LATENCY_BUCKETS_S
from wire import subjects

log = logging.getLogger("arbitration")
T = TypeVar("T")

SEAL_TIMEOUT_S = 5.0  # past this, the result goes out and the writer keeps trying
RETRY_FIRST_S = 0.05
RETRY_MAX_S = 1.0

ENTRIES = Counter("pf_log_entries_total", "Arbitration log entries recorded, by kind", ["kind"])
_ENTRIES_BY_KIND = {kind: ENTRIES.labels(name) for name, kind in log_pb2.EntryKind.items()}
APPEND_ERRORS = Counter("pf_log_append_errors_total", "Failed appends to the log (retried)")
BACKLOG = Gauge("pf_log_backlog_entries", "Log entries recorded but not yet stored")
STORE_SECONDS = Histogram(
    "pf_log_store_seconds",
    "From an entry's append to its acknowledgement by the stream",
    buckets=LATENCY_BUCKETS_S,
)
SEAL_SECONDS = Histogram(
    "pf_log_seal_seconds",
    "How long a match's result waited for its whole log to be stored",
    buckets=LATENCY_BUCKETS_S,
)


class Store(Protocol):
    """Where entries go; ``put`` returns once the entry is stored, or raises."""

    async def put(self, match_id: str, index: int, data: bytes) -> None: ...

    async def next_index(self, match_id: str) -> int:
        """Return the index after the match's last stored entry (0 when none is)."""
        ...


class StreamStore:
    """The JetStream stream ``PF_MATCH_LOG``, one subject per match."""

    def __init__(self, js: JetStreamContext) -> None:
        self._js = js

    async def put(self, match_id: str, index: int, data: bytes) -> None:
        await self._js.publish(
            subjects.match_log(match_id),
            data,
            stream=subjects.LOG_STREAM,
            headers={"Nats-Msg-Id": f"{match_id}.{index}"},
        )

    async def next_index(self, match_id: str) -> int:
        try:
            last = await self._js.get_last_msg(subjects.LOG_STREAM, subjects.match_log(match_id))
        except nats.js.errors.NotFoundError:
            return 0
        return log_pb2.LogEntry.FromString(last.data or b"").index + 1


class MemoryStore:
    """Entries kept in memory, by match (tests; a referee built without a log_writer)."""

    def __init__(self, keep: bool = True) -> None:
        self.logs: dict[str, list[bytes]] = {}
        self._keep = keep

    async def put(self, match_id: str, index: int, data: bytes) -> None:
        if self._keep:
            self.logs.setdefault(match_id, []).append(data)

    async def next_index(self, match_id: str) -> int:
        stored = self.logs.get(match_id)
        return log_pb2.LogEntry.FromString(stored[-1]).index + 1 if stored else 0

    def entries(self, match_id: str) -> list[log_pb2.LogEntry]:
        """Return a match's stored entries, decoded."""
        return [log_pb2.LogEntry.FromString(data) for data in self.logs.get(match_id, [])]


@dataclass(slots=True, eq=False)
class _Tail:
    """One match's end of the log: the next index and the entries waiting to be stored."""

    match_id: str
    next_index: int | None = None  # None: ask the store (a match taken over)
    pending: deque[tuple[log_pb2.LogEntry, bytes | None, float]] = field(default_factory=deque)
    writer: asyncio.Task[None] | None = None
    sealed: bool = False


class LogWriter:
    """Records each match's entries in the order the referee decides them."""

    def __init__(
        self, store: Store, instance: str = "", seal_timeout_s: float = SEAL_TIMEOUT_S
    ) -> None:
        self._store = store
        self._instance = instance
        self._seal_timeout_s = seal_timeout_s
        self._tails: dict[str, _Tail] = {}

    @classmethod
    def discarding(cls) -> LogWriter:
        """Return a log_writer that keeps nothing (a referee built without one)."""
        return cls(MemoryStore(keep=False))

    def opened(self, match: Match) -> None:
        """Record the header of a match that just opened."""
        self._tail(match.match_id).next_index = 0
        self._append(match, entries.opened_entry(match, self._instance))

    def judged(
        self, match: Match, item: Submission, answer: Answer, deadline_ns: int | None
    ) -> None:
        """Record a command the referee judged (not a retry answered from its cache).

        A command that arrived after the match ended is not part of it: it is answered,
        not recorded.
        """
        if match.finished_ns is not None and item.arrival_ns > match.finished_ns:
            return
        self._append(match, entries.judged_entry(match, item, answer, deadline_ns))

    def flagged(self, match: Match) -> None:
        """Record the flag that just ended the match."""
        self._append(match, entries.flag_entry(match))

    def nudged(self, match: Match) -> None:
        """Record the nudge the server just applied."""
        self._append(match, entries.nudge_entry(match, time.monotonic_ns()))

    async def seal(self, match: Match) -> bool:
        """Record the match's end and wait until its whole log is stored.

        Returns True the first time for a match, False after (its end is recorded once).
        """
        tail = self._tail(match.match_id)
        if tail.sealed:
            return False
        tail.sealed = True
        self._append(match, entries.closing_entry(match))
        started = time.perf_counter()
        try:
            await asyncio.wait_for(self._stored(tail), self._seal_timeout_s)
        except TimeoutError:
            log.error(
                "log not stored in time; the result goes out without it",
                extra={"fields": {"match": match.match_id, "backlog": len(tail.pending)}},
            )
        SEAL_SECONDS.observe(time.perf_counter() - started)
        return True

    async def flush(self, match_id: str) -> None:
        """Return once every entry recorded so far for the match is stored."""
        tail = self._tails.get(match_id)
        if tail is not None:
            await self._stored(tail)

    def forget(self, match_id: str) -> None:
        """Drop a match the arbitration let go of (its writer finishes what is left)."""
        self._tails.pop(match_id, None)

    async def close(self, timeout_s: float = 2.0) -> None:
        """Store what is waiting, for at most ``timeout_s``; then stop every writer."""
        writers = [t.writer for t in self._tails.values() if t.writer and not t.writer.done()]
        if writers:
            await asyncio.wait(writers, timeout=timeout_s)
        for writer in writers:
            writer.cancel()

    def _tail(self, match_id: str) -> _Tail:
        tail = self._tails.get(match_id)
        if tail is None:
            tail = self._tails[match_id] = _Tail(match_id)
        return tail

    def _append(self, match: Match, entry: log_pb2.LogEntry) -> None:
        # The hot path: queue the entry. Numbering it, hashing the state and encoding the
        # entry wait for the writer, after the command's answer has gone out.
        state = match.state if entry.kind in entries.CHANGES_STATE else None
        tail = self._tail(match.match_id)
        tail.pending.append((entry, state, time.perf_counter()))
        BACKLOG.inc()
        _ENTRIES_BY_KIND[entry.kind].inc()
        if tail.writer is None or tail.writer.done():
            tail.writer = asyncio.get_running_loop().create_task(
                self._write(tail), name=f"log-{tail.match_id}"
            )

    async def _stored(self, tail: _Tail) -> None:
        while tail.writer is not None and not tail.writer.done():
            await asyncio.shield(tail.writer)

    async def _write(self, tail: _Tail) -> None:
        """Store the tail's entries one by one, in order, until none is waiting."""
        while tail.next_index is None:
            tail.next_index = await self._retried(self._store.next_index, tail.match_id)
        while tail.pending:
            entry, state, queued = tail.pending[0]
            if state is not None:
                entry.state_sha256 = hashlib.sha256(state).digest()
            entry.index = tail.next_index
            data = entry.SerializeToString()
            await self._retried(self._store.put, tail.match_id, entry.index, data)
            tail.next_index += 1
            tail.pending.popleft()
            BACKLOG.dec()
            STORE_SECONDS.observe(time.perf_counter() - queued)

    async def _retried(self, call: Callable[..., Awaitable[T]], match_id: str, *args: Any) -> T:
        """Return ``call(match_id, *args)``, retried until the store answers."""
        delay_s = RETRY_FIRST_S
        while True:
            try:
                return await call(match_id, *args)
            except (nats.errors.Error, OSError) as error:
                # An entry is retried under the same Nats-Msg-Id, so it is stored once and
                # the entries after it wait: the log never has a hole or a swap.
                APPEND_ERRORS.inc()
                log.warning(
                    "log store failed; retrying",
                    extra={"fields": {"match": match_id, "error": repr(error)}},
                )
                await asyncio.sleep(delay_s)
                delay_s = min(RETRY_MAX_S, delay_s * 2)
