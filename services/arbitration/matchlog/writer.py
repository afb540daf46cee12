"""The arbitration log's writer: each match's entries appended to JetStream, in order, fenced.

The log is the durable record of a match. The match's worker appends an entry and waits for the
stream's acknowledgement before it changes the match by it or shows anything of it, so
what a player saw is in the log, and a takeover reads it back (docs/failover.md).

- **In order, once.** A match's entries are appended one at a time (its worker waits
  for each, so each leaves at once: ``Requests`` holds no request), numbered from 0
  without gaps. A failed append is retried with backoff under
  the same ``Nats-Msg-Id`` (``<match id>.<index>``), so the stream stores it once.
- **Fenced.** Each append names the stream sequence of the match's last stored entry
  (``Nats-Expected-Last-Subject-Sequence``), the one this writer stored or, for a match
  taken over, the one it read. When another instance has appended since (it took the
  match over while this one was stopped), the stream refuses, and this writer raises
  :class:`Superseded`: the entry never counted and nothing of it is shown.
- **A player's command, stored before it is judged.** ``send_command`` publishes it as a
  COMMAND on the holder's subject, fenced against the log subject's last entry, and
  waits for nothing: the stream feeds it to the rules once stored, and their answer is
  the acknowledgement. The entry that judges it takes its index and waits in ``judged``
  until the next entry stored carries it (``flush`` stores it alone, when something must
  not be shown before it is). ``confirm_command`` sends it again and waits, when the
  answer does not come.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import msgspec
import nats.errors
from nats.js import JetStreamContext
from prometheus_client import Counter, Gauge, Histogram

from photofinish.arbitration.v1 import log_pb2
from services.arbitration.match import Match
from services.arbitration.matchlog.bounds import is_full
from services.common.matchlogs import Stored, in_order, read_log
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

ENTRIES = Counter(
    "pf_log_entries_total",
    "Arbitration log entries recorded, by kind (a judged entry when it is sent with another)",
    ["kind"],
)
_ENTRIES_BY_KIND = {kind: ENTRIES.labels(name) for name, kind in log_pb2.EntryKind.items()}
APPEND_ERRORS = Counter("pf_log_append_errors_total", "Failed appends to the log (retried)")
BACKLOG = Gauge("pf_log_backlog_entries", "Log entries sent to the stream and not yet stored")
# pf_jetstream_publish_*{stream="PF_MATCH_LOG"}: each append's try, the stream's answer.
LOG_PUBLISHES = StreamPublishes(subjects.LOG_STREAM)
STORE_SECONDS = Histogram(
    "pf_log_store_seconds",
    "From an entry's append to its acknowledgement by the stream, for the entries waited"
    " for (a player's command stored first is not: the rules' answer stands for it)",
    buckets=LATENCY_BUCKETS_S,
)


class Superseded(Exception):
    """Another instance appended to the match's log: it runs the match now."""


class AppendRefused(ConnectionError):
    """The stream refused an entry for another reason (retried: it may be passing)."""


class Store(Protocol):
    """Where entries go and come back from."""

    async def put(
        self, match_id: str, index: int, data: bytes, after_seq: int, key: str = ""
    ) -> int:
        """Store an entry after the one at stream sequence ``after_seq``; return its own.

        ``key`` tells apart two stored messages of one index (a judged entry stored on its
        own after its COMMAND).

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

    async def put(
        self, match_id: str, index: int, data: bytes, after_seq: int, key: str = ""
    ) -> int:
        subject = subjects.match_log(match_id)
        headers = header_block(
            {
                "Nats-Msg-Id": f"{match_id}.{index}{key}",
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

    def send_command(self, sent: SentCommand, after_seq: int) -> None:
        """Publish a COMMAND to the log, awaiting nothing: the stream stores it only while
        the log subject's last entry is the one at ``after_seq`` (a takeover's fence
        moves it), and only once stored is it fed to the rules, whose answer says so."""
        headers = _command_headers(sent, after_seq)
        self._requests.link.publish(sent.subject, sent.data, "", headers)

    async def put_command(self, sent: SentCommand, after_seq: int) -> None:
        """Store a COMMAND sent before (or find it stored), and return once it is.

        Raises:
            Superseded: the log moved on under another instance; the command never counted.
        """
        reply = await self._requests.send(
            sent.subject, sent.data, APPEND_TIMEOUT_S, _command_headers(sent, after_seq)
        )
        error = json.loads(reply.data).get("error")
        if error is None:
            return  # stored now, or found stored (the stream dropped the repeat)
        if error.get("err_code") == WRONG_LAST_SEQUENCE:
            raise Superseded(sent.match_id)
        raise AppendRefused(f"the log stream refused a command: {error}")


def _command_headers(sent: SentCommand, after_seq: int) -> bytes:
    return header_block(
        {
            "Nats-Msg-Id": f"{sent.match_id}.{sent.index}",
            "Nats-Expected-Stream": subjects.LOG_STREAM,
            "Nats-Expected-Last-Subject-Sequence": str(after_seq),
            "Nats-Expected-Last-Subject-Sequence-Subject": subjects.match_log(sent.match_id),
            **sent.call,
        }
    )


class SentCommand(msgspec.Struct, frozen=True):
    """A COMMAND entry as sent to the log: on the holder's subject, with the call's headers
    (who answers, how the rules apply it)."""

    match_id: str
    index: int
    subject: str
    data: bytes
    call: dict[str, str]


class MemoryStore:
    """Entries kept in memory, by match (tests; a worker built without a log)."""

    def __init__(self, keep: bool = True) -> None:
        self.logs: dict[str, list[bytes]] = {}
        self._keep = keep
        self._last_seq: dict[str, int] = {}
        self._seq = 0

    async def put(
        self, match_id: str, index: int, data: bytes, after_seq: int, key: str = ""
    ) -> int:
        if self._last_seq.get(match_id, 0) != after_seq:
            raise Superseded(match_id)
        self._seq += 1
        self._last_seq[match_id] = self._seq
        if self._keep:
            self.logs.setdefault(match_id, []).append(data)
        return self._seq

    async def read(self, match_id: str) -> Stored:
        return Stored(in_order(self.entries(match_id)), self._last_seq.get(match_id, 0))

    def entries(self, match_id: str) -> list[log_pb2.LogEntry]:
        """Return a match's stored entries, decoded."""
        return [log_pb2.LogEntry.FromString(data) for data in self.logs.get(match_id, [])]


@dataclass(slots=True, eq=False)
class _Tail:
    """One match's end of the log: the next index, the stream sequence of the last entry on
    the log's subject, and the judged entry of the last COMMAND while it waits to be
    carried by the next entry stored."""

    next_index: int = 0
    last_seq: int = 0
    judged: log_pb2.LogEntry | None = None


def _carry(tail: _Tail, entry: log_pb2.LogEntry) -> None:
    """Put the judged entry waiting at the match's end of the log into ``entry``."""
    if tail.judged is not None:
        entry.judged.CopyFrom(tail.judged)


def _carried(tail: _Tail) -> None:
    """The entry that carried the waiting judged one is stored (or sent): it waits no more.
    Only the match's worker writes its log, one entry at a time: nothing came in between."""
    if tail.judged is not None:
        _ENTRIES_BY_KIND[tail.judged.kind].inc()
        tail.judged = None


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
        _carry(tail, entry)
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
        _carried(tail)
        STORE_SECONDS.observe(time.perf_counter() - started)
        _ENTRIES_BY_KIND[entry.kind].inc()

    def can_send_commands(self) -> bool:
        """Return whether commands can be stored before they are judged (the stream's way)."""
        return isinstance(self._store, StreamStore)

    def send_command(
        self, match: Match, entry: log_pb2.LogEntry, holder: str, call: dict[str, str]
    ) -> SentCommand:
        """Send a COMMAND as the match's next entry, carrying the last one's judged entry;
        nothing is awaited (``confirm_command`` waits, when the rules' answer does not come).
        """
        assert isinstance(self._store, StreamStore), "can_send_commands() says when"
        tail = self._tails[match.match_id]
        entry.index = tail.next_index
        _carry(tail, entry)
        subject = subjects.match_commands(holder, match.match_id)
        sent = SentCommand(match.match_id, entry.index, subject, entry.SerializeToString(), call)
        self._store.send_command(sent, tail.last_seq)
        _carried(tail)  # stored with the command, or superseded with it
        tail.next_index += 1
        _ENTRIES_BY_KIND[entry.kind].inc()
        return sent

    async def confirm_command(self, sent: SentCommand) -> None:
        """Return once a sent COMMAND is stored (sent again, the stream keeps it once).

        Raises:
            Superseded: another instance runs the match; the command never counted.
        """
        await self._retried(self._put_command, sent.match_id, sent)

    async def _put_command(self, match_id: str, sent: SentCommand) -> None:
        assert isinstance(self._store, StreamStore)
        await self._store.put_command(sent, self._tails[match_id].last_seq)

    def judged(self, match_id: str, entry: log_pb2.LogEntry, index: int) -> None:
        """Keep the judged entry of the COMMAND at ``index``: the next entry stored carries it."""
        entry.index = index
        self._tails[match_id].judged = entry

    async def flush(self, match: Match) -> None:
        """Store the judged entry waiting to be carried, on its own (before what must not be
        shown until the log holds it: a result, a judgement a new judge might not repeat)."""
        tail = self._tails[match.match_id]
        judged = tail.judged
        if judged is None:
            return
        data = judged.SerializeToString()
        tail.last_seq = await self._retried(
            self._store.put, match.match_id, judged.index, data, tail.last_seq, ".judged"
        )
        tail.judged = None
        _ENTRIES_BY_KIND[judged.kind].inc()

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
