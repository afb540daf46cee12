"""The JetStream streams the services declare, configured in one place.

Their names and subjects are the arena's (wire/subjects.py, docs/nats-subjects.md); how
long they keep what, and how they deduplicate, is the services' own.
"""

from __future__ import annotations

from nats.js import api

from wire.subjects import LOG_STREAM, RESULTS_STREAM


def results_stream_config() -> api.StreamConfig:
    """Return the results stream's configuration; every user declares it identically."""
    return api.StreamConfig(
        name=RESULTS_STREAM,
        subjects=["pf.results.>"],
        storage=api.StorageType.FILE,
        duplicate_window=24 * 3600.0,  # seconds: a result resent within a day is dropped
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
    )
