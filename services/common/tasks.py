"""Background loops of a service: stopping them for sure, and stopping the process if one dies."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

log = logging.getLogger(__name__)

# How long a cancelled task may take before it is cancelled again.
RECANCEL_S = 1.0


def stop_process_if_failed(task: asyncio.Task[None]) -> None:
    """A done-callback: a loop that died of an error takes the process down with it.

    A service whose consumer or scheduler stopped must not go on looking healthy; SIGTERM
    runs the ordinary shutdown, and the supervisor (the stack, Kubernetes) restarts it.
    """
    if not task.cancelled() and task.exception() is not None:
        log.error("%s failed; stopping", task.get_name(), exc_info=task.exception())
        signal.raise_signal(signal.SIGTERM)


async def stop(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait until it has ended, cancelling again if it ignored it.

    A cancellation can be swallowed: on Python 3.11, ``asyncio.wait_for`` (which nats-py's
    fetch uses) loses it when its inner future completes at the same moment. Awaiting the
    task once would then wait forever, and the process would never exit.
    """
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=RECANCEL_S)
    with contextlib.suppress(asyncio.CancelledError):
        await task
