"""How many spectator streams this gateway holds on each match, told to the others.

Each gateway writes its own counts to the ``pf_watchers`` bucket
(services/common/live.py), at once when a count changes and again every
:data:`~services.common.live.WATCHERS_RENEW_S` while it is above zero, so an entry of a
gateway that stopped ages out. Spectator streams (play sockets and Watches of seat -1)
come and go a few times a match; nothing here runs per command.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter

import nats.errors
from nats.js.kv import KeyValue

from services.common import tasks
from services.common.ids import fresh_id
from services.common.live import WATCHERS_RENEW_S, watchers_key

log = logging.getLogger(__name__)


class SpectatorCounts:
    """Counts this gateway's spectator streams per match and keeps the bucket told."""

    def __init__(self, watchers: KeyValue, renew_s: float = WATCHERS_RENEW_S) -> None:
        self._watchers = watchers
        self._renew_s = renew_s
        self.gateway = fresh_id(6)  # this process's name in the keys: unique, never reused
        self._open: Counter[str] = Counter()
        self._changed: set[str] = set()
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write())

    async def stop(self) -> None:
        """Stop writing; this gateway's entries go (or age out if NATS is gone)."""
        if self._writer is not None:
            await tasks.stop(self._writer)
        for match_id in list(self._open):
            await self._put(match_id, 0)

    def opened(self, match_id: str) -> None:
        """A spectator stream of ``match_id`` opened here."""
        self._open[match_id] += 1
        self._note(match_id)

    def closed(self, match_id: str) -> None:
        """A spectator stream of ``match_id`` closed here."""
        self._open[match_id] -= 1
        if self._open[match_id] <= 0:
            del self._open[match_id]
        self._note(match_id)

    def _note(self, match_id: str) -> None:
        self._changed.add(match_id)
        self._wake.set()

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        renew_at = loop.time() + self._renew_s
        while True:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can lose a cancel
            # that lands as the wait ends, and this loop would outlive its gateway.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout_at(renew_at):
                    await self._wake.wait()
            # Renewal is due by the clock, not by a quiet spell: changes on one match
            # every few seconds must not starve the other matches' renewals.
            if loop.time() >= renew_at:
                self._changed.update(self._open)  # renew every count still open
                renew_at = loop.time() + self._renew_s
            self._wake.clear()
            changed, self._changed = self._changed, set()
            for match_id in changed:
                await self._put(match_id, self._open.get(match_id, 0))

    async def _put(self, match_id: str, count: int) -> None:
        key = watchers_key(match_id, self.gateway)
        try:
            if count > 0:
                await self._watchers.put(key, str(count).encode())
            else:
                await self._watchers.delete(key)
        except nats.errors.Error as error:  # the next change or renewal tries again
            log.warning("spectator count not told", extra={"fields": {"why": repr(error)}})
