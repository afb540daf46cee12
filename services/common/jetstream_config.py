"""The JetStream streams and buckets the services declare, configured in one place.

Their names and subjects are the arena's (wire/subjects.py, docs/nats-subjects.md); how
long they keep what, and how they deduplicate, is the services' own. How many copies a
cluster keeps of each is the deployment's: ``PF_NATS_REPLICAS`` (1, a single server;
3 on a 3-node cluster), the same for every process, since a stream declared again with
another count is refused.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from nats.js import JetStreamContext, api
from nats.js.errors import BadRequestError, BucketNotFoundError
from nats.js.kv import KeyValue

from wire import subjects
from wire.subjects import ACCOUNTS_STREAM, LOG_STREAM, RESULTS_STREAM

NAME_IN_USE = 10058  # JetStream's error code: the stream exists, configured otherwise


def replicas() -> int:
    """Return how many copies of each stream and bucket the cluster keeps."""
    return int(os.environ.get("PF_NATS_REPLICAS", "1"))


async def declared_bucket(js: JetStreamContext, config: api.KeyValueConfig) -> KeyValue:
    """Return the bucket ``config`` names, creating it (at ``replicas()``) the first time."""
    try:
        return await js.key_value(config.bucket)
    except BucketNotFoundError:
        config.replicas = replicas()
        return await js.create_key_value(config)


async def declared_stream(js: JetStreamContext, config: api.StreamConfig) -> api.StreamInfo:
    """Return the stream ``config`` names: created, or brought to ``config`` when it exists
    configured otherwise (a deployment's stream takes new limits at the next start).

    Raises:
        BadRequestError: when the existing stream cannot become ``config`` (its storage).
    """
    try:
        return await js.add_stream(config)
    except BadRequestError as error:
        if error.err_code != NAME_IN_USE:
            raise
    return await js.update_stream(config)


def results_stream_config() -> api.StreamConfig:
    """Return the results stream's configuration; every user declares it identically."""
    return api.StreamConfig(
        name=RESULTS_STREAM,
        subjects=["pf.results.>"],
        storage=api.StorageType.FILE,
        duplicate_window=24 * 3600.0,  # seconds: a result resent within a day is dropped
        num_replicas=replicas(),
    )


def accounts_stream_config() -> api.StreamConfig:
    """Return the deleted accounts' stream's configuration; every user declares it identically.

    It keeps every deletion for ever (one small message per deleted account), so a service
    that starts reading it later still learns of each one.
    """
    return api.StreamConfig(
        name=ACCOUNTS_STREAM,
        subjects=["pf.accounts.>"],
        storage=api.StorageType.FILE,
        duplicate_window=24 * 3600.0,  # seconds: a deletion published again is dropped
        num_replicas=replicas(),
    )


@dataclass(frozen=True, slots=True)
class LogLimits:
    """How much of the match log the stream keeps (docs/arbitration-log.md, "Retention")."""

    max_age_days: float = 90.0  # PF_LOG_MAX_AGE_DAYS: replays and disputes; 0: for ever
    max_bytes: int = 4 << 30  # PF_LOG_MAX_BYTES: the whole stream on disk; 0: no limit
    entries_per_match: int = 20_000  # PF_LOG_ENTRIES_PER_MATCH: one match's subject, at most


def log_stream_config(limits: LogLimits = LogLimits()) -> api.StreamConfig:
    """Return the log stream's configuration; every user declares it identically.

    Each entry's Nats-Msg-Id is ``<match id>.<index>``, so a retried append is dropped.
    Past a limit the oldest entries go (discard old): a full stream never refuses a live
    match's append, which would hold the match until it had room.
    """
    return api.StreamConfig(
        name=LOG_STREAM,
        subjects=["pf.log.>", subjects.LOG_COMMANDS],
        # Each command, once stored, goes to the rules instance its subject names.
        republish=api.RePublish(src=subjects.LOG_COMMANDS, dest=subjects.JUDGE),
        storage=api.StorageType.FILE,
        duplicate_window=120.0,  # seconds: covers the writer's retries of one entry
        num_replicas=replicas(),
        max_age=limits.max_age_days * 86400.0 or None,
        max_bytes=limits.max_bytes or None,
        max_msgs_per_subject=limits.entries_per_match,
        discard=api.DiscardPolicy.OLD,
    )
