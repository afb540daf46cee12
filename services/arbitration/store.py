"""Snapshots of live matches in a NATS JetStream key-value bucket, one key per match.

Every save is a compare-and-set on the revision this instance last wrote, so an instance
that lost a match (it stalled past the liveness limit and another took the match over)
finds out at its next save instead of overwriting the new owner's snapshot.
"""

from __future__ import annotations

from nats.js import JetStreamContext, api
from nats.js.errors import BucketNotFoundError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from photofinish.arbitration.v1 import snapshot_pb2

SNAPSHOTS_BUCKET = "pf_matches"


class Superseded(Exception):
    """The snapshot changed since this instance wrote it: another instance owns the match."""


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

    async def save(self, snapshot: snapshot_pb2.MatchSnapshot, revision: int) -> int:
        """Store the snapshot over ``revision`` (0: the first); return the new revision.

        Returns once JetStream has it on disk.

        Raises:
            Superseded: when the stored snapshot is no longer the one at ``revision``.
        """
        key, value = snapshot.created.match_id, snapshot.SerializeToString()
        try:
            if revision == 0:
                return await self._kv.create(key, value)
            return await self._kv.update(key, value, last=revision)
        except KeyWrongLastSequenceError:
            raise Superseded(key) from None

    async def load(self, match_id: str) -> tuple[snapshot_pb2.MatchSnapshot, int] | None:
        """Return a match's snapshot and its revision, or None when there is none."""
        try:
            entry = await self._kv.get(match_id)
        except KeyNotFoundError:
            return None
        if entry.value is None or entry.revision is None:
            return None
        return snapshot_pb2.MatchSnapshot.FromString(entry.value), entry.revision

    async def forget(self, match_id: str) -> None:
        """Remove a finished match's snapshot."""
        try:
            await self._kv.delete(match_id)
        except KeyNotFoundError:
            return
