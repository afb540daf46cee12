"""ListLiveMatches: the matches in play and their spectators, answered by the gateway.

An always-current copy of the ``pf_live`` and ``pf_watchers`` buckets
(services/common/live.py), kept by watching them: a match's record arrives when it opens
and goes when it ends, a count when a gateway's spectators change. A call reads the copy
and never waits on NATS. A record whose match has no owner recorded any more (its delete
was lost) is left out, and so is a count its gateway stopped renewing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable

from google.protobuf.message import DecodeError, Message
from nats.js.kv import KV_DEL, KV_PURGE, KeyValue

from photofinish.client.v1 import arena_pb2
from photofinish.events.v1 import events_pb2
from services.common import tasks
from services.common.live import WATCHERS_TTL_S, match_of
from services.common.placement import Directory
from wire.grpcweb.metadata import Metadata

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


def ordered(shown: Iterable[arena_pb2.LiveMatchShown]) -> list[arena_pb2.LiveMatchShown]:
    """Return the matches in the list's order: tournament games first, then the most
    watched, then the newest."""
    return sorted(
        shown,
        key=lambda s: (
            not s.match.tournament_id,
            -s.watchers,
            -s.match.opened_at_unix_ms,
            s.match.match_id,
        ),
    )


def chosen(
    request: arena_pb2.ListLiveMatchesRequest, shown: Iterable[arena_pb2.LiveMatchShown]
) -> list[arena_pb2.LiveMatchShown]:
    """Return what ``request`` asks for of ``shown``: its game or match, in order, limited."""
    limit = min(request.limit or DEFAULT_LIMIT, MAX_LIMIT)
    wanted = [
        s
        for s in shown
        if (not request.game or s.match.game == request.game)
        and (not request.match_id or s.match.match_id == request.match_id)
    ]
    return ordered(wanted)[:limit]


class LiveMatches:
    """The live matches and their spectator counts, as the buckets hold them now."""

    def __init__(
        self,
        live: KeyValue,
        watchers: KeyValue,
        directory: Directory,
        now_s: Callable[[], float] = time.monotonic,
        watchers_ttl_s: float = WATCHERS_TTL_S,
    ) -> None:
        self._live_kv = live
        self._watchers_kv = watchers
        self._directory = directory
        self._now_s = now_s
        self._ttl_s = watchers_ttl_s
        self._records: dict[str, events_pb2.LiveMatch] = {}
        self._counts: dict[str, tuple[int, float]] = {}  # key -> (count, heard at)
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._watch(self._live_kv, self._on_record)),
            asyncio.create_task(self._watch(self._watchers_kv, self._on_count)),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            await tasks.stop(task)

    def shown(self) -> list[arena_pb2.LiveMatchShown]:
        """Return every live match with its spectator count, in no order."""
        owners = self._directory.owners()
        watchers: dict[str, int] = {}
        fresh_after = self._now_s() - self._ttl_s
        for key, (count, heard_at) in self._counts.items():
            if heard_at >= fresh_after:
                match_id = match_of(key)
                watchers[match_id] = watchers.get(match_id, 0) + count
        return [
            arena_pb2.LiveMatchShown(match=record, watchers=watchers.get(match_id, 0))
            for match_id, record in self._records.items()
            if match_id in owners
        ]

    async def list_live_matches(self, request: Message, metadata: Metadata) -> bytes:
        """The gateway's own ListLiveMatches (services/gateway/grpcweb's ``local``)."""
        assert isinstance(request, arena_pb2.ListLiveMatchesRequest)
        return arena_pb2.ListLiveMatchesReply(
            matches=chosen(request, self.shown())
        ).SerializeToString()

    def _on_record(self, key: str, value: bytes | None) -> None:
        if value is None:
            self._records.pop(key, None)
            return
        try:
            self._records[key] = events_pb2.LiveMatch.FromString(value)
        except DecodeError:
            self._records.pop(key, None)  # not a record this version reads

    def _on_count(self, key: str, value: bytes | None) -> None:
        count = int(value) if value is not None and value.isdigit() else 0
        if count > 0:
            self._counts[key] = (count, self._now_s())
        else:
            self._counts.pop(key, None)

    @staticmethod
    async def _watch(kv: KeyValue, on_entry: Callable[[str, bytes | None], None]) -> None:
        watcher = await kv.watchall()
        async for entry in watcher:
            if entry is None:  # the initial values are all in
                continue
            deleted = entry.operation in (KV_DEL, KV_PURGE)
            on_entry(entry.key, None if deleted else entry.value)
