"""Taking matches over: this instance's own after a restart, and a silent instance's orphans.

Nobody measured time while a match's owner was down or silent: that outage is a fault
for every match exposed when it stopped (a rated one is voided, a casual one plays on
with the fault on record).
"""

from __future__ import annotations

import asyncio
import logging

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from services.arbitration.faults import Fault, FaultKind
from services.arbitration.match import FaultNotice
from services.arbitration.matches import Matches
from services.arbitration.metrics import TIMING_FAULTS
from services.arbitration.placement import Placement
from services.arbitration.snapshot import from_snapshot
from services.arbitration.store import SnapshotStore

log = logging.getLogger("arbitration")


class Takeover:
    """Resumes matches from their snapshots into the registry, claiming each first."""

    def __init__(self, matches: Matches, store: SnapshotStore, placement: Placement) -> None:
        self._matches = matches
        self._store = store
        self._placement = placement

    async def take_over(self) -> int:
        """Resume the live matches this instance owned before it stopped; return how many.

        Nobody measured time while the owner was down: that outage is a fault for every
        match that was exposed when it stopped (a rated one is voided, a casual one plays
        on with the fault on record). The clocks continue from their stamps, which the
        machine's monotonic clock keeps meaningful across the restart.
        """
        resumed = 0
        for match_id, owner in self._placement.mine().items():
            # Claimed again so that an instance adopting it at this very moment loses.
            if await self._placement.claim(match_id, owner):
                resumed += await self._resume(match_id, FaultKind.ARBITRATION_RESTART)
        return resumed

    async def adopt_orphans(self, every_s: float) -> None:
        """Take over the matches of instances that stopped announcing themselves, forever.

        Each orphan is claimed by compare-and-set, so of several surviving instances one
        adopts it. The silence is a fault like a restart's (an arbitration_failover).
        """
        while True:
            await asyncio.sleep(every_s)
            self._let_go_of_moved()
            try:
                orphans = await self._placement.orphans()
                for match_id, owner in orphans.items():
                    if self._matches.find(match_id) is not None:
                        continue  # held here already
                    if await self._placement.claim(match_id, owner):
                        await self._resume(match_id, FaultKind.ARBITRATION_FAILOVER)
            except Exception as error:  # NATS trouble: look again next time
                log.warning("adoption round failed", extra={"fields": {"why": repr(error)}})

    def _let_go_of_moved(self) -> None:
        """Drop the matches another instance adopted while this one was not heard from.

        Their next save would be refused anyway (the snapshot is fenced); this lets go of
        the idle ones too, so a stalled instance that wakes up holds nothing stale.
        """
        owners = self._placement.directory.owners()
        for match in self._matches.held():
            owner = owners.get(match.match_id)
            if owner is not None and owner.instance != self._matches.instance:
                fields = {"match": match.match_id, "to": owner.instance}
                log.error("match moved", extra={"fields": fields})
                self._matches.let_go(match.match_id)

    async def _resume(self, match_id: str, kind: FaultKind) -> int:
        """Run a match from its snapshot here; return 1, or 0 when there is none to run."""
        loaded = await self._store.load(match_id)
        if loaded is None or loaded[0].status != arbitration_pb2.STATUS_LIVE:
            # Over, or never saved: nothing to run. The snapshot and record go, so the
            # gateway stops routing to an owner that is not coming back.
            await self._store.forget(match_id)
            await self._placement.release(match_id)
            return 0
        snapshot, revision = loaded
        match = from_snapshot(snapshot)
        match.revision = revision
        for seat in (0, 1, -1):
            view = await self._matches.rules.view(match.game, match.state, seat)
            match.perspectives[seat] = game_pb2.Seen(view=view.view).SerializeToString()
        # Saved before anything runs: a silent old owner is now fenced off.
        await self._matches.save(match)
        outage = Fault(kind, snapshot.saved_ns, self._matches.now())
        TIMING_FAULTS.labels(outage.kind.value).inc()
        match.queue.put_nowait(FaultNotice(outage))  # judged before any timer fires
        self._matches.hold(match)
        log.info(
            "taken over",
            extra={"fields": {"match": match_id, "seq": match.seq, "how": kind.value}},
        )
        return 1
