"""Who runs each live match: every arbitration instance's address and each match's owner.

Two JetStream key-value buckets hold it. ``pf_arbiters`` maps an instance name to its gRPC
address; each instance rewrites its entry every second and the bucket forgets entries
older than :data:`INSTANCE_TTL_S`, so an instance that stops rewriting is gone from it.
``pf_owners`` maps a match id to the instance that runs the match. Arbitration writes both
(services/arbitration/ownership.py); the gateway reads them through :class:`Directory` to
send each match's calls to its owner.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from nats.js import JetStreamContext, api
from nats.js.errors import InvalidKeyError, KeyNotFoundError
from nats.js.kv import KV_DEL, KV_PURGE, KeyValue

from services.common import tasks
from services.common.jetstream_config import declared_bucket

log = logging.getLogger(__name__)

# The arbitration instances, by name. The bucket keeps its deployed name (NATS permissions
# in deploy/nats/authorization.conf and every running deployment know it by it).
INSTANCES_BUCKET = "pf_arbiters"
OWNERS_BUCKET = "pf_owners"
# An instance silent this long is taken for dead and its matches are adopted: well above
# the timing tolerances, so a stall that voids a match does not also move it.
INSTANCE_TTL_S = 3.0


async def instances_bucket(js: JetStreamContext, ttl_s: float = INSTANCE_TTL_S) -> KeyValue:
    """Return the instances bucket, creating it the first time (entries live ``ttl_s``)."""
    return await declared_bucket(
        js,
        api.KeyValueConfig(
            bucket=INSTANCES_BUCKET, history=1, ttl=ttl_s, storage=api.StorageType.MEMORY
        ),
    )


async def owners_bucket(js: JetStreamContext) -> KeyValue:
    """Return the owners bucket, creating it the first time."""
    return await declared_bucket(
        js, api.KeyValueConfig(bucket=OWNERS_BUCKET, history=1, storage=api.StorageType.FILE)
    )


@dataclass(frozen=True, slots=True)
class Owner:
    """A match's owner and the bucket revision that recorded it (for compare-and-set)."""

    instance: str
    revision: int


class Directory:
    """An always-current copy of both buckets, kept by watching them.

    A match opened a moment ago may not have reached the watch yet; :meth:`address_of`
    then asks the bucket directly, so a caller never waits on the watch.
    """

    def __init__(self, owners: KeyValue, instances: KeyValue) -> None:
        self.owners_kv = owners
        self.instances_kv = instances
        self._owners: dict[str, Owner] = {}
        self._addresses: dict[str, str] = {}
        self._synced = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    @classmethod
    async def open(cls, js: JetStreamContext) -> Directory:
        return cls(await owners_bucket(js), await instances_bucket(js))

    async def start(self) -> None:
        """Start watching; return once the owners bucket has been read to its end."""
        owners_synced = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._watch_owners(owners_synced)),
            asyncio.create_task(self._watch_instances()),
        ]
        await owners_synced.wait()
        self._synced.set()

    async def stop(self) -> None:
        for task in self._tasks:
            await tasks.stop(task)

    def owners(self) -> dict[str, Owner]:
        """Return every recorded owner by match id (a copy)."""
        return dict(self._owners)

    def note_owner(self, match_id: str, owner: Owner) -> None:
        """Record an owner this process just wrote, before the watch brings it back."""
        current = self._owners.get(match_id)
        if current is None or current.revision < owner.revision:
            self._owners[match_id] = owner

    async def owner_of(self, match_id: str) -> str | None:
        """Return the instance that runs ``match_id``, or None when none is recorded."""
        owner = self._owners.get(match_id)
        if owner is not None:
            return owner.instance
        try:
            entry = await self.owners_kv.get(match_id)
        except (KeyNotFoundError, InvalidKeyError):  # no such match (or no such id at all)
            return None
        if entry.value is None or entry.revision is None:
            return None
        self.note_owner(match_id, Owner(entry.value.decode(), entry.revision))
        return entry.value.decode()

    async def address_of(self, match_id: str) -> str | None:
        """Return the gRPC address of the instance that runs ``match_id``, when known."""
        instance = await self.owner_of(match_id)
        if instance is None:
            return None
        address = self._addresses.get(instance)
        if address is not None:
            return address
        try:
            entry = await self.instances_kv.get(instance)
        except (KeyNotFoundError, InvalidKeyError):
            return None
        if entry.value is None:
            return None
        self._addresses[instance] = entry.value.decode()
        return self._addresses[instance]

    async def _watch_owners(self, synced: asyncio.Event) -> None:
        watcher = await self.owners_kv.watchall()
        async for entry in watcher:
            if entry is None:  # the initial values are all in
                synced.set()
                continue
            if entry.operation in (KV_DEL, KV_PURGE):
                self._owners.pop(entry.key, None)
            elif entry.value is not None and entry.revision is not None:
                self.note_owner(entry.key, Owner(entry.value.decode(), entry.revision))
            if entry.delta == 0:
                synced.set()

    async def _watch_instances(self) -> None:
        # Addresses only: an entry that ages out is not reported, and a dead instance's
        # stale address costs its callers nothing but an UNAVAILABLE until its matches
        # are adopted and their new owner is recorded.
        watcher = await self.instances_kv.watchall()
        async for entry in watcher:
            if entry is None or entry.value is None or entry.operation is not None:
                continue
            self._addresses[entry.key] = entry.value.decode()
