"""Taking matches over: this instance's own after a restart, and a silent instance's orphans.

A match is taken over from its log, the durable record: the stored entries rebuild the
arbitration's record of it (``record.rebuilt``), a TAKEN_OVER entry fences the old owner
off (its next append is refused), and the rules service is given the state back
(``restoring``). Nobody measured time while the match's owner was down or silent: that
outage is a fault for every match exposed when it stopped (a rated one is voided, a
casual one plays on with the fault on record).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import NamedTuple

from services.arbitration import record
from services.arbitration.faults import Fault, FaultKind
from services.arbitration.left_commands import judge_left_command, left_command
from services.arbitration.match import FaultNotice, Match
from services.arbitration.matches import Matches
from services.arbitration.matchlog import entries
from services.arbitration.matchlog.writer import LogWriter, Superseded
from services.arbitration.metrics import TIMING_FAULTS
from services.arbitration.ownership import Placement
from services.arbitration.restoring import restore
from services.common.matchlogs import Stored

log = logging.getLogger("arbitration")


class Takeover:
    """Resumes matches from their logs into the registry, claiming each first."""

    def __init__(self, matches: Matches, placement: Placement) -> None:
        self._matches = matches
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
            with self._matches.arriving(match_id):
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
                    with self._matches.arriving(match_id):
                        if await self._placement.claim(match_id, owner):
                            await self._resume(match_id, FaultKind.ARBITRATION_FAILOVER)
            except Exception as error:  # NATS trouble: look again next time
                log.warning("adoption round failed", extra={"fields": {"why": repr(error)}})

    def _let_go_of_moved(self) -> None:
        """Drop the matches another instance adopted while this one was not heard from.

        Their next append would be refused anyway (the log is fenced); this lets go of
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
        """Run a match from its log here; return 1, or 0 when there is none to run."""
        log_writer = self._matches.log_writer
        rules = self._matches.rules

        async def judge_left(match: Match, stored: Stored) -> Stored:
            return await judge_left_command(rules, log_writer, match, stored)

        fenced = await fence(
            log_writer, match_id, self._matches.instance, self._matches.now, judge_left
        )
        if fenced is None or fenced.match.closed:
            # Over, or never opened: nothing to run. A result may not have gone out before
            # the owner stopped: it goes again (the results stream drops a repeat). The
            # owner record goes, so the gateway stops routing to an owner not coming back.
            if fenced is not None:
                await self._matches.publish_result(fenced.match)
            await self._placement.release(match_id)
            return 0
        match, stored, last_alive_ns, now_ns = fenced
        await restore(self._matches.rules, log_writer, match, stored.entries)
        outage = Fault(kind, last_alive_ns, now_ns)
        TIMING_FAULTS.labels(outage.kind.value).inc()
        match.queue.put_nowait(FaultNotice(outage))  # judged before any timer fires
        self._matches.hold(match)
        log.info(
            "taken over",
            extra={"fields": {"match": match_id, "seq": match.seq, "how": kind.value}},
        )
        return 1


FENCE_ATTEMPTS = 5


class Fenced(NamedTuple):
    """A match taken over: rebuilt from its log, which now ends in this instance's fence
    (unless the match was closed already), and when it was last alive before."""

    match: Match
    stored: Stored
    last_alive_ns: int
    now_ns: int


async def fence(
    log_writer: LogWriter,
    match_id: str,
    instance: str,
    now: Callable[[], int],
    judge_left: Callable[[Match, Stored], Awaitable[Stored]] | None = None,
) -> Fenced | None:
    """Read the match's log and append a TAKEN_OVER entry after its last one, which fences
    the old owner off; return the match, or None when the log has no header.

    The old owner, woken from a stall, may append between the read and the fence (it has
    not yet seen that the match moved). Its entry stands, as its players saw it: the log
    is read again and the fence goes after it. A log that ends with a command its owner
    left unjudged has it judged first (``judge_left``), and the fence carries the judged
    entry (``left_commands.py``).

    Raises:
        Superseded: the log kept moving for FENCE_ATTEMPTS reads (the old owner is alive
            and has not let go); the next adoption round looks again.
    """
    for _ in range(FENCE_ATTEMPTS):
        stored = await log_writer.read(match_id)
        match = record.rebuilt(stored.entries)
        if match is None or match.closed:
            return None if match is None else Fenced(match, stored, 0, 0)
        last_alive_ns = match.opened_ns + stored.entries[-1].stamp_ns
        log_writer.resume(match_id, stored)
        if judge_left is not None and left_command(stored) is not None:
            stored = await judge_left(match, stored)
        now_ns = now()
        try:
            # Logged before anything runs: an old owner that wakes up is fenced off.
            await log_writer.append(match, entries.taken_over_entry(match, instance, now_ns))
        except Superseded:
            log.warning("log moved on under a takeover", extra={"fields": {"match": match_id}})
            continue
        return Fenced(match, stored, last_alive_ns, now_ns)
    raise Superseded(match_id)
