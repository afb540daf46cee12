"""The match registry: every live match this instance holds, each with its worker task.

It opens matches, hands every process-wide fault to each of them and lets them go;
taking matches over (``takeover``), forgetting finished ones (``eviction``) and the gRPC
calls (``servicer``) live beside it. Time comes from one injected clock (``now``), the
same one the match's worker stamps with.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from services.arbitration import record
from services.arbitration.attendance import ABANDONED_AFTER_S, Attendance
from services.arbitration.clock import Clock
from services.arbitration.faults import Fault, FaultKind, Tolerances, measured
from services.arbitration.match import FaultNotice, Match
from services.arbitration.match_worker import MatchWorker, spawn
from services.arbitration.matchlog import entries
from services.arbitration.matchlog.writer import LogWriter
from services.arbitration.metrics import FORWARDING_DELAY, LIVE_MATCHES, TIMING_FAULTS
from services.arbitration.ownership import Placement
from services.arbitration.publisher import Publisher
from services.arbitration.refusals import Reason, refuse
from services.arbitration.rules_client import RulesClient
from services.arbitration.timers import Timers

log = logging.getLogger("arbitration")

AWAY_AFTER_S = 30.0  # a seat of an online match unheard for this long is away (PF_AWAY_S)


class Matches:
    """Every match this instance owns, each with its worker task."""

    def __init__(
        self,
        instance: str,
        rules: RulesClient,
        publisher: Publisher,
        timers: Timers,
        clock: Clock | None = None,
        tolerances: Tolerances | None = None,
        log_writer: LogWriter | None = None,
        placement: Placement | None = None,
        *,
        now: Callable[[], int],
        away_after_s: float = AWAY_AFTER_S,
        abandoned_after_s: float = ABANDONED_AFTER_S,
    ) -> None:
        self.instance = instance
        self.placement = placement
        self.now = now  # the monotonic clock every stamp and age here is read from
        self._clock = clock or Clock()
        self.rules = rules
        self._publisher = publisher
        self.tolerances = tolerances or Tolerances()
        self.log_writer = log_writer or LogWriter.discarding()
        self.attendance = Attendance(self.held, self.find, away_after_s, now, abandoned_after_s)
        self._worker = MatchWorker(
            rules,
            publisher,
            timers.schedule,
            self.tolerances,
            self.on_fault,
            self.log_writer,
            now,
            self.attendance,
        )
        self._timers = timers
        self._live: dict[str, Match] = {}
        self._arriving: set[str] = set()
        # In play only: a finished match kept for late readers is not a live one (/ops).
        LIVE_MATCHES.set_function(self.live_count)
        self._workers: dict[str, asyncio.Task[None]] = {}

    def get(self, match_id: str) -> Match:
        """Return the match.

        Raises:
            Rejection: NOT_FOUND when this instance holds no such match.
        """
        match = self._live.get(match_id)
        if match is None and match_id in self._arriving:
            # Claimed here, its log still being read: the gateway already routes to this
            # instance, and "no such match" would end a player's stream for good.
            why = f"match {match_id!r} is being taken over here: try again in a moment"
            raise refuse(Reason.MATCH_ARRIVING, why)
        if match is None:
            raise refuse(Reason.UNKNOWN_MATCH, f"no match {match_id!r}")
        return match

    @contextlib.contextmanager
    def arriving(self, match_id: str) -> Iterator[None]:
        """Mark ``match_id`` as being taken over here, from its claim until it is held."""
        self._arriving.add(match_id)
        try:
            yield
        finally:
            self._arriving.discard(match_id)

    def find(self, match_id: str) -> Match | None:
        """Return the match if this instance holds it."""
        return self._live.get(match_id)

    async def open(self, created: events_pb2.MatchCreated) -> Match:
        """Open a match from matchmaking's request: deal, log, publish, start its worker."""
        if created.match_id in self._live:
            return self._live[created.match_id]  # a retried request: already open
        step = await self.rules.open(created.match_id, created)
        header = entries.opened_entry(
            created,
            step,
            self.now(),
            self._clock.bank_ns[0] // 1_000_000,
            self._clock.grace_ns // 1_000_000,
            self.instance,
        )
        if self.placement is not None:  # recorded first: the gateway routes by it
            await self.placement.claim_new(created.match_id)
        self.log_writer.begin(created.match_id)
        match = record.opened(header)
        await self.log_writer.append(match, header)  # stored before anyone hears of it
        match.show(step.perspectives)
        self.hold(match)
        self._publisher.updates(match)
        self._publisher.opened(match)
        return match

    async def publish_result(self, match: Match) -> None:
        """Publish the result of a match whose end is logged (again: the stream drops a
        repeat, by match id)."""
        if match.status == arbitration_pb2.STATUS_FINISHED and match.outcome is not None:
            await self._publisher.finished(match, match.seq)
        elif match.status == arbitration_pb2.STATUS_VOIDED:
            await self._publisher.voided(match, match.void_kind, match.void_reason)

    def hold(self, match: Match) -> None:
        """Hold the match and start its worker; a worker that ends on its own lets it go."""
        self._live[match.match_id] = match
        # Everyone gets the whole away (and abandon) limit from now: a match taken over is
        # not judged by how long its players went unheard by an instance that did not hold it.
        held_ns = self.now()
        match.seen_ns = {seat: held_ns for seat in (0, 1)}
        worker = spawn(self._worker, match)
        self._workers[match.match_id] = worker
        worker.add_done_callback(lambda task: self._worker_ended(match, task))
        self._timers.schedule(match)

    def _worker_ended(self, match: Match, worker: asyncio.Task[None]) -> None:
        if worker.cancelled() or self._live.get(match.match_id) is not match:
            return
        # The worker returned: the match moved to another instance (see MatchWorker.run).
        self.let_go(match.match_id)

    def let_go(self, match_id: str) -> None:
        """Stop holding a match: its worker (if still running) and its timer end, and its
        rules instance may drop its state."""
        match = self._live.pop(match_id)
        self._workers.pop(match_id).cancel()
        if match.timer is not None:
            match.timer.cancel()
        self.log_writer.forget(match_id)
        self.rules.forget(match_id)

    def on_fault(self, fault: Fault) -> None:
        """Count a fault of this process and let every live match judge it, in order."""
        _record(fault)
        for match in self._live.values():
            if not match.is_over():
                match.queue.put_nowait(FaultNotice(fault))

    def forwarded(self, match: Match, received_ns: int | None, arrival_ns: int) -> None:
        """Check how long a command took from the gateway; a slow one is this match's fault."""
        if received_ns is None:
            return
        FORWARDING_DELAY.observe(max(0, arrival_ns - received_ns) / 1e9)
        fault = measured(FaultKind.FORWARDING_DELAY, received_ns, arrival_ns, self.tolerances)
        if fault is not None:
            _record(fault, match=match.match_id)
            match.queue.put_nowait(FaultNotice(fault))

    async def close(self) -> None:
        for worker in self._workers.values():
            worker.cancel()
        for match in self._live.values():
            if match.timer is not None:
                match.timer.cancel()

    def held(self) -> Iterator[Match]:
        """Return every match held now (a copy: the caller may let some go)."""
        return iter(list(self._live.values()))

    def holds_any(self) -> bool:
        """Return whether this instance holds any match (live, or finished and kept)."""
        return bool(self._live)

    def live_count(self) -> int:
        return sum(1 for m in self._live.values() if not m.is_over())


def _record(fault: Fault, **fields: str) -> None:
    """Count a fault and log it with its measured figure (and the match it hit, if one)."""
    TIMING_FAULTS.labels(fault.kind.value).inc()
    figures = {"kind": fault.kind.value, "ms": round(fault.duration_ms, 3)}
    log.warning("timing fault", extra={"fields": {**figures, **fields}})
