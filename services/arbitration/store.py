"""Snapshots of live matches in a NATS JetStream key-value bucket, one key per match."""

from __future__ import annotations

from nats.js import JetStreamContext, api
from nats.js.errors import BucketNotFoundError, KeyNotFoundError, NoKeysError
from nats.js.kv import KeyValue

from photofinish.arbitration.v1 import arbitration_pb2, snapshot_pb2

SNAPSHOTS_BUCKET = "pf_matches"


class SnapshotStore:
    """Saves each live match after every change; a restarted owner loads its matches back."""

    def __init__(self, kv: KeyValue) -> None:
        self._kv = kv

    @classmethod
    async def open(cls, js: JetStreamContext) -> SnapshotStore:
        """Return the store, creating its bucket the first time."""
        try:
            kv = await js.key_value(SNAPSHOTS_BUCKET)
        except BucketNotFoundError:
            kv = await js.create_key_value(
                api.KeyValueConfig(bucket=SNAPSHOTS_BUCKET, history=1, storage=api.StorageType.FILE)
            )
        return cls(kv)

    async def save(self, snapshot: snapshot_pb2.MatchSnapshot) -> None:
        """Store the snapshot; returns once JetStream has it on disk."""
        await self._kv.put(snapshot.created.match_id, snapshot.SerializeToString())

    async def forget(self, match_id: str) -> None:
        """Remove a finished match's snapshot."""
        try:
            await self._kv.delete(match_id)
        except KeyNotFoundError:
            return

    async def owned_live(self, owner: str) -> list[snapshot_pb2.MatchSnapshot]:
        """Return the live matches ``owner`` held when it last saved them."""
        try:
            keys = await self._kv.keys()
        except NoKeysError:
            return []
        found = []
        for key in keys:
            try:
                entry = await self._kv.get(key)
            except KeyNotFoundError:
                continue  # deleted meanwhile
            snapshot = snapshot_pb2.MatchSnapshot.FromString(entry.value or b"")
            if snapshot.owner == owner and snapshot.status == arbitration_pb2.STATUS_LIVE:
                found.append(snapshot)
        return found
