"""How every process of the arena is told to stop: SIGINT or SIGTERM, then a clean close."""

from __future__ import annotations

import asyncio
import signal


async def wait_for_stop_signal() -> None:
    """Return when SIGINT or SIGTERM arrives."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
