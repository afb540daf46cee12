"""The matches in play and their spectators, as two JetStream key-value buckets.

``pf_live`` maps a match id to its :class:`LiveMatch` record: the arbitration writes it
when it opens the match and deletes it when the match ends (finished or voided), so the
list costs one write at each end of a match and nothing per command.

``pf_watchers`` maps ``<match id>.<gateway>`` to the number of spectator streams that
gateway holds on the match (ASCII digits). Each gateway rewrites its entries while they
are open and the bucket forgets entries older than :data:`WATCHERS_TTL_S`, so a gateway
that stops leaves no spectators behind.

The gateway reads both to answer ListLiveMatches (services/gateway/live_matches.py).
"""

from __future__ import annotations

from nats.js import JetStreamContext, api
from nats.js.kv import KeyValue

from photofinish.events.v1 import events_pb2
from services.common.jetstream_config import declared_bucket

LIVE_BUCKET = "pf_live"
WATCHERS_BUCKET = "pf_watchers"
# A record whose delete was lost (NATS down at the end) ages out after a day: no match
# runs that long, and the list also skips a match whose owner record is gone.
LIVE_MAX_AGE_S = 24 * 3600.0
WATCHERS_TTL_S = 30.0
WATCHERS_RENEW_S = WATCHERS_TTL_S / 3  # a renewal may be late twice


async def live_bucket(js: JetStreamContext) -> KeyValue:
    """Return the bucket of live-match records, creating it the first time."""
    return await declared_bucket(
        js,
        api.KeyValueConfig(
            bucket=LIVE_BUCKET, history=1, ttl=LIVE_MAX_AGE_S, storage=api.StorageType.FILE
        ),
    )


async def watchers_bucket(js: JetStreamContext, ttl_s: float = WATCHERS_TTL_S) -> KeyValue:
    """Return the bucket of spectator counts, creating it the first time."""
    return await declared_bucket(
        js,
        api.KeyValueConfig(
            bucket=WATCHERS_BUCKET, history=1, ttl=ttl_s, storage=api.StorageType.MEMORY
        ),
    )


def live_record(created: events_pb2.MatchCreated, opened_at_unix_ms: int) -> bytes:
    """Return the encoded record of a match opened from ``created``."""
    return events_pb2.LiveMatch(
        match_id=created.match_id,
        game=created.game,
        players=created.players,
        rated=created.rated,
        mode=created.mode,
        tournament_id=created.tournament_id,
        tournament_name=created.tournament_name,
        opened_at_unix_ms=opened_at_unix_ms,
    ).SerializeToString()


def watchers_key(match_id: str, gateway: str) -> str:
    """Return the key of ``gateway``'s spectator count on ``match_id``."""
    return f"{match_id}.{gateway}"


def match_of(watchers_key: str) -> str:
    """Return the match id a spectator-count key is about."""
    return watchers_key.rsplit(".", 1)[0]
