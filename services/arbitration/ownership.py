"""This instance's side of the placement records: announcing itself, claiming matches.

Every claim is a compare-and-set on the match's ``pf_owners`` entry, so when two
instances reach for the same orphaned match exactly one gets it. What the records mean
is described in services/common/placement.py.
"""

from __future__ import annotations

import asyncio
import logging

from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError, NoKeysError
from nats.js.kv import KeyValue

from services.common.placement import Directory, Owner

log = logging.getLogger("arbitration")

HEARTBEAT_S = 1.0


class Placement:
    """Claims and releases matches for ``instance``; keeps it announced while it runs."""

    def __init__(self, instance: str, directory: Directory) -> None:
        self.instance = instance
        self.directory = directory
        self._owners: KeyValue = directory.owners_kv
        self._instances: KeyValue = directory.instances_kv

    async def announce(self, address: str, every_s: float = HEARTBEAT_S) -> None:
        """Keep this instance's address in the instances bucket, forever."""
        while True:
            try:
                await self._instances.put(self.instance, address.encode())
            except Exception as error:  # a missed beat is retried, never fatal
                log.warning("announce failed", extra={"fields": {"why": repr(error)}})
            await asyncio.sleep(every_s)

    async def claim_new(self, match_id: str) -> None:
        """Record this instance as the owner of a match it just opened."""
        revision = await self._owners.put(match_id, self.instance.encode())
        self.directory.note_owner(match_id, Owner(self.instance, revision))

    async def claim(self, match_id: str, seen: Owner) -> bool:
        """Take ``match_id`` over from ``seen``; False when someone else changed it first."""
        try:
            revision = await self._owners.update(
                match_id, self.instance.encode(), last=seen.revision
            )
        except KeyWrongLastSequenceError:
            return False
        self.directory.note_owner(match_id, Owner(self.instance, revision))
        return True

    async def release(self, match_id: str) -> None:
        """Forget the owner of a match that is over and gone from this instance."""
        try:
            await self._owners.delete(match_id)
        except KeyNotFoundError:
            return

    def mine(self) -> dict[str, Owner]:
        """Return the matches recorded as this instance's (a restart takes them back)."""
        return {m: o for m, o in self.directory.owners().items() if o.instance == self.instance}

    async def orphans(self) -> dict[str, Owner]:
        """Return the matches whose owner is no longer announced (it died)."""
        alive = set(await self._alive())
        owners = self.directory.owners()
        suspects = {o.instance for o in owners.values()} - alive - {self.instance}
        # Listing the bucket's keys can miss one that is being rewritten that very moment
        # (its announcement, every second): asked for by name, a live instance is found.
        silent = {instance for instance in suspects if not await self._announced(instance)}
        return {match_id: owner for match_id, owner in owners.items() if owner.instance in silent}

    async def _announced(self, instance: str) -> bool:
        try:
            entry = await self._instances.get(instance)
        except KeyNotFoundError:
            return False
        return entry.value is not None

    async def _alive(self) -> list[str]:
        try:
            return await self._instances.keys()
        except NoKeysError:  # nobody announced (yet); any other error is raised: a failed
            return []  # look must never make every match look orphaned
