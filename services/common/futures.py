"""The one way a callback settles a future: a caller that awaits an answer given to a
callback (a batch's, a request's, a command's)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def settling(future: asyncio.Future[T]) -> Callable[[T | BaseException], None]:
    """Return a callback that settles ``future`` with the first outcome it is given: a
    result, or an error the awaiting caller raises. A caller that gave up (cancelled) is
    left as it is, and a second outcome is ignored."""

    def settle(outcome: T | BaseException) -> None:
        if future.done():
            return
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)

    return settle
