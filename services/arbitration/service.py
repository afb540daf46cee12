"""The arbitration process's live matches: opening them, taking commands, letting them go."""

from __future__ import annotations

import asyncio
import logging
import time

import grpc
from nats.aio.msg import Msg

from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration.clock import Clock
from services.arbitration.decision import decision_from_proto
from services.arbitration.faults import Fault, FaultKind, Tolerances, exposure_after, measured
from services.arbitration.match import FaultNotice, Match, Submission
from services.arbitration.matchlog.reader import LogReader
from services.arbitration.matchlog.writer import LogWriter
from services.arbitration.metrics import (
    FORWARDING_DELAY,
    LIVE_MATCHES,
    SNAPSHOT_SECONDS,
    TIMING_FAULTS,
)
from services.arbitration.placement import Placement
from services.arbitration.publisher import Publisher, build_update
from services.arbitration.referee import Referee, spawn
from services.arbitration.rules import RulesClient
from services.arbitration.snapshot import from_snapshot, to_snapshot
from services.arbitration.store import SnapshotStore
from services.arbitration.timers import Timers
from services.arbitration.timing import Timing, after_step
from services.common.identity import player_id_of, received_ns_of
from services.common.rejection import Rejection

log = logging.getLogger("arbitration")


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
        store: SnapshotStore | None = None,
        placement: Placement | None = None,
    ) -> None:
        self.instance = instance
        self._store = store
        self._ownership = placement
        self._clock = clock or Clock()
        self._rules = rules
        self._publisher = publisher
        self.tolerances = tolerances or Tolerances()
        self.log_writer = log_writer or LogWriter.discarding()
        self._referee = Referee(
            rules,
            publisher,
            timers.schedule,
            self.tolerances,
            self.on_fault,
            self.log_writer,
            self.save,
        )
        self._timers = timers
        self._live: dict[str, Match] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}

    def get(self, match_id: str) -> Match:
        """Return the match.

        Raises:
            Rejection: NOT_FOUND when this instance holds no such match.
        """
        match = self._live.get(match_id)
        if match is None:
            raise Rejection(grpc.StatusCode.NOT_FOUND, "unknown_match", f"no match {match_id!r}")
        return match

    def find(self, match_id: str) -> Match | None:
        """Return the match if this instance holds it."""
        return self._live.get(match_id)

    async def open(self, created: events_pb2.MatchCreated) -> Match:
        """Open a match from matchmaking's request: deal, publish, start its worker."""
        if created.match_id in self._live:
            return self._live[created.match_id]  # a retried request: already open
        step = await self._rules.new_match(created.game, created.options, created.seed)
        now_ns = time.monotonic_ns()
        decision = decision_from_proto(step.decision)
        timing = Timing(
            self._clock, clocked=step.clocked, hot_seat=created.mode == events_pb2.MODE_HOTSEAT
        )
        match = Match(
            created=created,
            opened_ns=now_ns,
            state=step.state,
            version=step.version,
            decision=decision,
            decision_proto=step.decision,
            timing=after_step(timing, decision, now_ns),
            perspectives={p.seat: p for p in step.perspectives},
        )
        match.exposure = exposure_after(match.exposure, match.is_exposed(), now_ns)
        self.log_writer.opened(match)
        if self._ownership is not None:  # recorded first: the gateway routes by it
            await self._ownership.claim_new(created.match_id)
        await self.save(match)
        self._run(match)
        await self._publisher.updates(match)
        await self._publisher.opened(match)
        return match

    async def save(self, match: Match) -> None:
        """Keep the match's snapshot for a takeover (no store: nothing is kept).

        Raises:
            Superseded: when another instance has taken the match over.
        """
        if self._store is not None:
            started = time.perf_counter()
            snapshot = to_snapshot(match, self.instance, time.monotonic_ns())
            match.revision = await self._store.save(snapshot, match.revision)
            SNAPSHOT_SECONDS.observe(time.perf_counter() - started)

    def _run(self, match: Match) -> None:
        """Hold the match and start its worker; a worker that ends on its own lets it go."""
        self._live[match.match_id] = match
        LIVE_MATCHES.inc()
        worker = spawn(self._referee, match)
        self._workers[match.match_id] = worker
        worker.add_done_callback(lambda task: self._worker_ended(match, task))
        self._timers.schedule(match)

    def _worker_ended(self, match: Match, worker: asyncio.Task[None]) -> None:
        if worker.cancelled() or self._live.get(match.match_id) is not match:
            return
        # The worker returned: the match moved to another instance (see Referee.run).
        self._let_go(match.match_id)

    def _let_go(self, match_id: str) -> None:
        """Stop holding a match: its worker (if still running) and its timer end."""
        match = self._live.pop(match_id)
        self._workers.pop(match_id).cancel()
        LIVE_MATCHES.dec()
        if match.timer is not None:
            match.timer.cancel()

    async def take_over(self) -> int:
        """Resume the live matches this instance owned before it stopped; return how many.

        Nobody measured time while the owner was down: that outage is a fault for every
        match that was exposed when it stopped (a rated one is voided, a casual one plays
        on with the fault on record). The clocks continue from their stamps, which the
        machine's monotonic clock keeps meaningful across the restart.
        """
        if self._ownership is None:
            return 0
        resumed = 0
        for match_id, owner in self._ownership.mine().items():
            # Claimed again so that an instance adopting it at this very moment loses.
            if await self._ownership.claim(match_id, owner):
                resumed += await self._resume(match_id, FaultKind.ARBITRATION_RESTART)
        return resumed

    async def adopt_orphans(self, every_s: float) -> None:
        """Take over the matches of instances that stopped announcing themselves, forever.

        Each orphan is claimed by compare-and-set, so of several surviving instances one
        adopts it. The silence is a fault like a restart's (an arbitration_failover).
        """
        assert self._ownership is not None
        while True:
            await asyncio.sleep(every_s)
            self._let_go_of_moved()
            try:
                orphans = await self._ownership.orphans()
                for match_id, owner in orphans.items():
                    if match_id not in self._live and await self._ownership.claim(match_id, owner):
                        await self._resume(match_id, FaultKind.ARBITRATION_FAILOVER)
            except Exception as error:  # NATS trouble: look again next time
                log.warning("adoption round failed", extra={"fields": {"why": repr(error)}})

    def _let_go_of_moved(self) -> None:
        """Drop the matches another instance adopted while this one was not heard from.

        Their next save would be refused anyway (the snapshot is fenced); this lets go of
        the idle ones too, so a stalled instance that wakes up holds nothing stale.
        """
        assert self._ownership is not None
        owners = self._ownership.directory.owners()
        for match_id in list(self._live):
            owner = owners.get(match_id)
            if owner is not None and owner.instance != self.instance:
                log.error(
                    "match moved", extra={"fields": {"match": match_id, "to": owner.instance}}
                )
                self._let_go(match_id)

    async def _resume(self, match_id: str, kind: FaultKind) -> int:
        """Run a match from its snapshot here; return 1, or 0 when there is none to run."""
        assert self._store is not None and self._ownership is not None
        loaded = await self._store.load(match_id)
        if loaded is None or loaded[0].status != arbitration_pb2.STATUS_LIVE:
            # Over, or never saved: nothing to run. The snapshot and record go, so the
            # gateway stops routing to an owner that is not coming back.
            await self._store.forget(match_id)
            await self._ownership.release(match_id)
            return 0
        snapshot, revision = loaded
        match = from_snapshot(snapshot)
        match.revision = revision
        for seat in (0, 1, -1):
            view = await self._rules.view(match.game, match.state, seat)
            match.perspectives[seat] = rules_pb2.Perspective(seat=seat, view=view.view)
        await self.save(match)  # before anything runs: a silent old owner is now fenced off
        outage = Fault(kind, snapshot.saved_ns, time.monotonic_ns())
        TIMING_FAULTS.labels(outage.kind.value).inc()
        match.queue.put_nowait(FaultNotice(outage))  # judged before any timer fires
        self._run(match)
        log.info(
            "taken over",
            extra={"fields": {"match": match_id, "seq": match.seq, "how": kind.value}},
        )
        return 1

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

    async def on_create_request(self, msg: Msg) -> None:
        """Answer matchmaking's NATS request to open a match."""
        created = events_pb2.MatchCreated()
        reply = events_pb2.MatchOpened(arbiter=self.instance)
        try:
            created.ParseFromString(msg.data)
            reply.match_id = created.match_id
            await self.open(created)
        except Rejection as rejection:
            reply.error = f"{rejection.reason}: {rejection.message}"
        except ValueError as error:  # DecodeError is a ValueError
            reply.error = f"malformed MatchCreated: {error}"
        await msg.respond(reply.SerializeToString())

    async def evict_finished(self, keep_s: float) -> None:
        """Forget finished matches older than ``keep_s``, forever, every few seconds."""
        while True:
            await asyncio.sleep(min(5.0, keep_s))
            cutoff = time.monotonic_ns() - int(keep_s * 1e9)
            for match_id, match in list(self._live.items()):
                if match.finished_ns is not None and match.finished_ns < cutoff:
                    self._let_go(match_id)
                    self.log_writer.forget(match_id)
                    try:
                        if self._store is not None:
                            await self._store.forget(match_id)
                        if self._ownership is not None:
                            await self._ownership.release(match_id)
                    except Exception as error:
                        # NATS trouble must not end the eviction of every later match; a
                        # finished match's leftover records go at the next take_over.
                        log.warning(
                            "forgetting a finished match failed",
                            extra={"fields": {"match": match_id, "why": repr(error)}},
                        )

    async def close(self) -> None:
        for worker in self._workers.values():
            worker.cancel()
        for match in self._live.values():
            if match.timer is not None:
                match.timer.cancel()

    def live_count(self) -> int:
        return sum(1 for m in self._live.values() if not m.is_over())


class ArbitrationServicer(arbitration_pb2_grpc.ArbitrationServicer):
    """Submit, GetUpdate and GetMatchLog: decode, hand to the match or the log, encode."""

    def __init__(self, matches: Matches, log_reader: LogReader | None = None) -> None:
        self._matches = matches
        self._logbook = log_reader

    async def Submit(
        self,
        request: arbitration_pb2.SubmitRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> arbitration_pb2.SubmitReply:
        arrival_ns = time.monotonic_ns()  # the instant that counts: before anything awaits
        try:
            match = self._seated(request.match_id, request.seat, context)
            if request.client_seq <= 0:
                raise Rejection(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    "bad_client_seq",
                    "client_seq must be 1 or more",
                )
            self._matches.forwarded(match, received_ns_of(context), arrival_ns)
            answer: asyncio.Future[arbitration_pb2.SubmitReply] = (
                asyncio.get_running_loop().create_future()
            )
            match.queue.put_nowait(
                Submission(arrival_ns, request.seat, request.client_seq, request.command, answer)
            )
            return await answer
        except Rejection as rejection:
            await rejection.abort(context)
            raise AssertionError("abort returns by raising") from None

    async def GetUpdate(
        self,
        request: arbitration_pb2.GetUpdateRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> arbitration_pb2.MatchUpdate:
        try:
            if request.seat == -1:
                match = self._matches.get(request.match_id)
            else:
                match = self._seated(request.match_id, request.seat, context)
            return build_update(match, request.seat, time.monotonic_ns())
        except Rejection as rejection:
            await rejection.abort(context)
            raise AssertionError("abort returns by raising") from None

    async def GetMatchLog(
        self,
        request: log_pb2.GetMatchLogRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> log_pb2.MatchLog:
        try:
            if self._logbook is None:
                raise Rejection(grpc.StatusCode.UNIMPLEMENTED, "no_log", "no log store here")
            held = self._matches.find(request.match_id)
            return await self._logbook.fetch(request.match_id, player_id_of(context), held)
        except Rejection as rejection:
            await rejection.abort(context)
            raise AssertionError("abort returns by raising") from None

    def _seated(
        self, match_id: str, seat: int, context: grpc.aio.ServicerContext[object, object]
    ) -> Match:
        match = self._matches.get(match_id)
        player = player_id_of(context)
        if seat not in match.player_seats(player):
            raise Rejection(
                grpc.StatusCode.PERMISSION_DENIED,
                "not_your_seat",
                f"seat {seat} of match {match_id} is not yours",
            )
        return match


def _record(fault: Fault, **fields: str) -> None:
    """Count a fault and log it with its measured figure (and the match it hit, if one)."""
    TIMING_FAULTS.labels(fault.kind.value).inc()
    figures = {"kind": fault.kind.value, "ms": round(fault.duration_ms, 3)}
    log.warning("timing fault", extra={"fields": {**figures, **fields}})
