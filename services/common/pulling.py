"""Batches from a JetStream pull subscription, until the task that reads them is cancelled.

nats-py's ``fetch`` (and its requests) await ``asyncio.wait_for``, which on Python 3.11
returns its result when a cancel arrives in the same instant, and so loses the cancel: of
300 cancels of a loop fetching with a 10 ms idle wait, 8 were lost (docs/testing.md). A
consumer stopped by cancelling it would then fetch for ever, and a service waiting for it
would never stop. So the loop honours the task's pending cancel requests itself.

A fetch that no JetStream server answers (a 503: the stream's leader is being elected after
a node was lost, or the consumer is gone for a moment) is no reason to stop reading: the
loop waits ``idle_s`` and asks again. A consumer that stopped there took the tournaments
service down with it in the deployment test, each time the NATS node it read from was
killed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.errors import ServiceUnavailableError

log = logging.getLogger(__name__)


async def batches(
    sub: JetStreamContext.PullSubscription, size: int, idle_s: float
) -> AsyncIterator[list[Msg]]:
    """Yield each fetched batch (empty after ``idle_s`` without a message) until cancelled.

    Raises:
        asyncio.CancelledError: once the reading task has been cancelled, even if the
            cancel reached a fetch that swallowed it.
    """
    task = asyncio.current_task()
    assert task is not None, "batches() is read from a task"
    while True:
        try:
            messages = await sub.fetch(size, timeout=idle_s)
        # nats-py raises its own TimeoutError or, on one path, asyncio's: catch both.
        except TimeoutError:
            messages = []
        except ServiceUnavailableError:
            log.warning("no JetStream server answers the consumer; asking again")
            await asyncio.sleep(idle_s)
            messages = []
        if task.cancelling():
            raise asyncio.CancelledError
        yield messages
