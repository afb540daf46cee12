"""The results stream and a durable consumer on it (ratings', tournaments'), declared at start."""

from __future__ import annotations

import logging

from nats.js import JetStreamContext, api
from nats.js.errors import BadRequestError

from services.common.jetstream_config import results_stream_config
from wire.subjects import RESULTS_FINISHED, RESULTS_STREAM, RESULTS_VOIDED

# JetStream's error code for "stream name already in use with a different configuration".
STREAM_NAME_IN_USE = 10058
CONSUMED_SUBJECTS = (RESULTS_FINISHED, RESULTS_VOIDED)

log = logging.getLogger(__name__)


class StreamConflict(RuntimeError):
    """The results stream exists but does not capture the subjects results come on."""


def consumer_config(ack_wait_s: float, durable: str) -> api.ConsumerConfig:
    """Return a durable pull consumer of the results: explicit acks, from the stream's start.

    From the start, not from now: a result may come while the consumer's service is down
    for the first time after an upgrade; replaying older results only costs lookups.
    """
    return api.ConsumerConfig(
        durable_name=durable,
        ack_policy=api.AckPolicy.EXPLICIT,
        deliver_policy=api.DeliverPolicy.ALL,
        ack_wait=ack_wait_s,
        filter_subjects=list(CONSUMED_SUBJECTS),
    )


async def declare(js: JetStreamContext, ack_wait_s: float, durable: str) -> None:
    """Create the results stream if missing and create or update the ``durable`` consumer.

    Raises:
        StreamConflict: when the existing stream misses a results subject.
    """
    await declare_stream(js)
    # The legacy durable-create call updates an existing durable in place (e.g. ack_wait).
    await js.add_consumer(RESULTS_STREAM, consumer_config(ack_wait_s, durable))


async def declare_stream(js: JetStreamContext) -> None:
    """Create the stream as ``results_stream_config()`` says; accept a usable existing one.

    Every user declares the stream identically, so a differing one means deployments
    disagree. Refusing to start would stop a consumer over, say, a longer dedupe window;
    it starts if the stream still captures the results subjects, and says what differs.

    Raises:
        StreamConflict: when the existing stream misses a results subject.
    """
    wanted = results_stream_config()
    try:
        await js.add_stream(wanted)
        return
    except BadRequestError as error:
        if error.err_code != STREAM_NAME_IN_USE:
            raise
    found = (await js.stream_info(RESULTS_STREAM)).config
    patterns = found.subjects or []
    missing = [s for s in CONSUMED_SUBJECTS if not any(matches(p, s) for p in patterns)]
    if missing:
        raise StreamConflict(
            f"stream {RESULTS_STREAM} exists with subjects {patterns}, which do not capture"
            f" {missing}; fix or delete the stream (see services/common/jetstream_config.py)"
        )
    log.warning(
        "results stream exists with a different configuration; using it",
        extra={"fields": {"differences": differences(wanted, found)}},
    )


def differences(wanted: api.StreamConfig, found: api.StreamConfig) -> dict[str, object]:
    """Return {field: (wanted, found)} for each field ``wanted`` sets that ``found`` differs in."""
    have = found.as_dict()
    return {
        key: (value, have.get(key))
        for key, value in wanted.as_dict().items()
        if value is not None and have.get(key) != value
    }


def matches(pattern: str, subject: str) -> bool:
    """Return whether NATS subject ``pattern`` (with ``*`` and ``>``) matches ``subject``."""
    want, have = pattern.split("."), subject.split(".")
    for i, token in enumerate(want):
        if token == ">":
            return len(have) > i
        if i >= len(have) or (token != "*" and token != have[i]):
            return False
    return len(want) == len(have)
