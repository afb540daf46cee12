"""Trying a JetStream call again while the cluster is between leaders.

While a stream elects a new leader (a node lost, a restart) JetStream answers a publish
or a fetch with no responders, a timeout, or 503 "service unavailable" for a few seconds.
What must not be lost (a match's result) or must be read whole (a log) is tried again,
with a growing pause, until it succeeds or the time allowed is spent; other errors (a
wrong stream, a refused request) are not worth a second try and go up at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import nats.errors
import nats.js.errors

T = TypeVar("T")

log = logging.getLogger("jetstream")

# What a cluster answers while a stream has no leader, or a node is unreachable.
PASSING = (
    nats.errors.TimeoutError,
    nats.errors.NoRespondersError,
    nats.js.errors.NoStreamResponseError,
    nats.js.errors.ServiceUnavailableError,
)
FIRST_PAUSE_S = 0.2
LONGEST_PAUSE_S = 5.0


async def until_done(what: str, call: Callable[[], Awaitable[T]], within_s: float) -> T:
    """Return ``call()``'s result, trying again after a passing error for ``within_s``.

    Raises:
        the last passing error once ``within_s`` is spent; any other error at once.
    """
    deadline = time.monotonic() + within_s
    pause = FIRST_PAUSE_S
    tries = 0
    while True:
        tries += 1
        try:
            return await call()
        except PASSING as error:
            if time.monotonic() + pause > deadline:
                log.error(
                    "gave up", extra={"fields": {"what": what, "tries": tries, "why": repr(error)}}
                )
                raise
            log.warning(
                "trying again", extra={"fields": {"what": what, "tries": tries, "why": repr(error)}}
            )
        await asyncio.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE_S)
