"""The stack each end-to-end module plays against: its own, started once for the module.

A module sets ``STACK_ENV`` (extra environment for every process) and ``STACK_WITH_BOTS``
(the bot pool runs) when it needs other than the defaults: no bots, nothing extra.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from services.stack.stack import Stack, StackConfig, run_stack


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def arena(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Stack, aiohttp.ClientSession]]:
    """Yield the module's stack and an HTTP session to reach it."""
    config = StackConfig(
        Path(tmp_path_factory.mktemp("stack")),
        with_bots=getattr(request.module, "STACK_WITH_BOTS", False),
        extra_env=tuple(getattr(request.module, "STACK_ENV", ())),
    )
    async with run_stack(config) as stack, aiohttp.ClientSession() as http:
        yield stack, http
