"""The browser tests' stack and browser: one of each per module."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from services.stack.stack import StackConfig, run_stack
from tests.pace import FAST_PLAY_ENV
from tests.web.browser import chromium

# The computer thinks faster than a person would, so a whole match fits a test.
THINK_SCALE = "0.2"


@dataclass(frozen=True, slots=True)
class Arena:
    url: str
    browser: Browser
    ops_password: str = ""  # the operator's, for /ops
    nats_url: str = ""  # the operator's: to publish as a service would (results from before)
    data_dir: Path = Path()  # the stack's: its SQLite files (an operator's role granted there)

    def log_tail(self, service: str, lines: int = 8) -> list[str]:
        """The last lines ``service`` logged in this stack (for a failure to show)."""
        path = self.data_dir / "logs" / f"{service}.log"
        return path.read_text(errors="replace").splitlines()[-lines:] if path.exists() else []


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def arena(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Arena]:
    config = StackConfig(
        Path(tmp_path_factory.mktemp("stack")),
        with_bots=True,
        extra_env=(("PF_BOTS_THINK_SCALE", THINK_SCALE), *FAST_PLAY_ENV),
    )
    async with run_stack(config) as stack, chromium() as browser:
        yield Arena(stack.gateway_url, browser, stack.ops_password, stack.nats_url, config.data_dir)
