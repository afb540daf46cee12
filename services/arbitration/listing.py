"""This instance's side of the live list: a match's record from its opening to its end.

The record (services/common/live.py) is written once when a match opens and deleted once
when its result goes out, never per command. Neither write holds up a match: the
publisher only queues them, and one task writes them in order (so an end never overtakes
its opening). NATS trouble is logged; a record left behind ages out of the bucket, and
out of the list as soon as the match's owner record goes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import nats.errors
from nats.js.kv import KeyValue

from photofinish.events.v1 import events_pb2
from services.common import tasks
from services.common.live import live_record

log = logging.getLogger("arbitration")

DRAIN_S = 2.0

# A record to write (opened), or the id of a match whose record goes (ended).
Change = events_pb2.MatchCreated | str


class Listing:
    """Lists the matches this instance opens; unlists them when they end."""

    def __init__(self, live: KeyValue) -> None:
        self._live = live
        self._changes: asyncio.Queue[Change] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write())

    async def stop(self) -> None:
        """Write what is queued (for a moment at most), then stop."""
        if self._writer is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changes.join(), DRAIN_S)
        await tasks.stop(self._writer)

    def opened(self, created: events_pb2.MatchCreated) -> None:
        """List a match that just opened."""
        self._changes.put_nowait(created)

    def ended(self, match_id: str) -> None:
        """Unlist a match whose end is published (again after a takeover: harmless)."""
        self._changes.put_nowait(match_id)

    async def _write(self) -> None:
        while True:
            change = await self._changes.get()
            match_id = change if isinstance(change, str) else change.match_id
            try:
                if isinstance(change, str):
                    await self._live.delete(change)
                else:
                    await self._live.put(match_id, live_record(change, int(time.time() * 1000)))
            except nats.errors.Error as error:  # JetStream's errors included
                log.warning(
                    "live list not updated",
                    extra={"fields": {"match": match_id, "why": repr(error)}},
                )
            finally:
                self._changes.task_done()
