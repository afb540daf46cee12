"""The load worker processes' side of the pipe to the benchmark: what they say, and errors."""

from __future__ import annotations

import multiprocessing.connection
import os
from collections.abc import Callable, Coroutine
from typing import Any

from runtime import loops

Connection = multiprocessing.connection.Connection


def serve_worker(
    conn: Connection,
    cpus: frozenset[int],
    work: Callable[[], Coroutine[Any, Any, dict[str, Any]]],
) -> None:
    """Run a worker process's ``work`` on the services' event loop (on ``cpus`` when given)
    and send its result back, or the error that ended it."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        conn.send(loops.run(work()))
    except Exception as error:
        conn.send({"error": f"{type(error).__name__}: {error}"})
        raise
    finally:
        conn.close()


def receive(conn: Connection, timeout_s: float) -> dict[str, Any]:
    """Return a worker's next message.

    Raises:
        TimeoutError: it said nothing within ``timeout_s``.
        RuntimeError: it failed (the message carried its error).
    """
    if not conn.poll(timeout_s):
        raise TimeoutError(f"a worker said nothing for {timeout_s:g} s")
    message: dict[str, Any] = conn.recv()
    if "error" in message:
        raise RuntimeError(f"a worker failed: {message['error']}")
    return message
