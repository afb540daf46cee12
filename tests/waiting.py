"""Waiting in tests for what is expected to happen: a condition polled up to a deadline.

A fixed sleep either passes vacuously (the thing never happened, the sleep just ended) or
fails on a slow machine; a poll returns as soon as the thing is seen and, when it never
is, fails saying what never happened. The deadline guards against a hang; it is never a
speed target.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import TypeVar, overload

T = TypeVar("T")

TIMEOUT_S = 20.0
EVERY_S = 0.05


@overload
async def poll_until(
    what: str,
    condition: Callable[[], Awaitable[T | None]],
    timeout_s: float = TIMEOUT_S,
    every_s: float = EVERY_S,
) -> T: ...


@overload
async def poll_until(
    what: str,
    condition: Callable[[], T | None],
    timeout_s: float = TIMEOUT_S,
    every_s: float = EVERY_S,
) -> T: ...


async def poll_until(
    what: str,
    condition: Callable[[], object],
    timeout_s: float = TIMEOUT_S,
    every_s: float = EVERY_S,
) -> object:
    """Return the first true value of ``condition()`` (awaited if it is awaitable); a
    condition that returns None until it holds hands back its value, not a bool.

    Raises:
        AssertionError: naming ``what`` and the last value seen, when ``condition()`` is
            still false after ``timeout_s``.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if loop.time() >= deadline:
            raise AssertionError(f"not within {timeout_s:g} s: {what} (last seen: {value!r})")
        await asyncio.sleep(every_s)
