"""The JetStream streams and buckets the services declare, configured in one place.

Their names and subjects are the arena's (wire/subjects.py, docs/nats-subjects.md); how
long they keep what, and how they deduplicate, is the services' own. How many copies a
cluster keeps of each is the deployment's: ``PF_NATS_REPLICAS`` (1, a single server;
3 on a 3-node cluster), the same for every process, since a stream declared again with
another count is refused.
"""

from __future__ import annotations

import os

from nats.js import JetStreamContext, api
from nats.js.errors import BucketNotFoundError
from nats.js.kv import KeyValue

from wire.subjects import LOG_STREAM, RESULTS_STREAM


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


def results_stream_config() -> api.StreamConfig:
    """Return the results stream's configuration; every user declares it identically."""
    return api.StreamConfig(
        name=RESULTS_STREAM,
        subjects=["pf.results.>"],
        storage=api.StorageType.FILE,
        duplicate_window=24 * 3600.0,  # seconds: a result resent within a day is dropped
        num_replicas=replicas(),
    )


def log_stream_config() -> api.StreamConfig:
    """Return the log stream's configuration; every user declares it identically.

    Entries are kept on file with no age limit: a finished match's log is its record.
    Each entry's Nats-Msg-Id is ``<match id>.<index>``, so a retried append is dropped.
    """
    return api.StreamConfig(
        name=LOG_STREAM,
        subjects=["pf.log.>"],
        storage=api.StorageType.FILE,
        duplicate_window=120.0,  # seconds: covers the writer's retries of one entry
        num_replicas=replicas(),
    )
