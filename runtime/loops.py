"""The event loop every process runs on: uvloop by default, asyncio's own on request.

``PF_EVENT_LOOP=asyncio`` selects the standard library's loop (for an A/B, or to debug);
anything else, or nothing, uvloop. See docs/performance.md for what each costs.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine
from typing import Any, TypeVar

import uvloop

T = TypeVar("T")
VARIABLE = "PF_EVENT_LOOP"


def chosen() -> str:
    """Return the event loop this process runs on: "uvloop" or "asyncio"."""
    return "asyncio" if os.environ.get(VARIABLE, "").strip() == "asyncio" else "uvloop"


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on the chosen event loop (``asyncio.run``'s contract)."""
    if chosen() == "asyncio":
        return asyncio.run(main)
    return uvloop.run(main)
