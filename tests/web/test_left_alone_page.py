"""A hot-seat match whose tab was closed ends by itself (left alone for the limit), and the
page says why when the player comes back to it. A short limit keeps it quick (3 s unheard;
the default is 600 s)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio
from playwright.async_api import Page

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import log_pb2
from services.stack.stack import StackConfig, run_stack
from tests.waiting import poll_until
from tests.web.browser import chromium, new_page, screenshot, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")

ENV = (("PF_ABANDONED_S", "3"), ("PF_PRESENCE_EVERY_S", "0.5"), ("PF_GATE_TIMEOUT_S", "600"))
ENDED_TIMEOUT_S = 30.0


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def quick_abandon(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Arena]:
    config = StackConfig(Path(tmp_path_factory.mktemp("stack")), with_bots=False, extra_env=ENV)
    async with run_stack(config) as stack, chromium() as browser:
        yield Arena(stack.gateway_url, browser)


async def stored(page: Page, key: str, field: str) -> str:
    found: str = await page.evaluate(f"() => JSON.parse(localStorage.getItem('{key}')).{field}")
    return found


async def ended(client: ArenaClient, match_id: str) -> log_pb2.MatchLog:
    async def attempt() -> log_pb2.MatchLog | None:
        try:
            return await client.match_log(match_id)
        except CallError as error:
            if error.reason != "match_live":
                raise
            return None

    return await poll_until("the match left alone ends", attempt, ENDED_TIMEOUT_S, 0.2)


async def test_a_hot_seat_match_left_alone_ends_and_the_page_says_why(
    quick_abandon: Arena,
) -> None:
    page = await new_page(quick_abandon.browser, quick_abandon.url)
    await sign_in(page, "Pat Leaves")
    await page.click("#bid-hotseat")
    await page.wait_for_selector("#ready")
    token = await stored(page, "pf.session", "token")
    match_id = await stored(page, "pf.match", "matchId")
    await page.goto("about:blank")  # the tab is gone: no stream of the match is open
    async with aiohttp.ClientSession() as http:
        pat = ArenaClient(http, quick_abandon.url)
        pat.web.token = token
        log = await ended(pat, match_id)
    assert log.entries[-1].reason == "abandoned"
    await page.goto(quick_abandon.url)  # back later: the page shows the match's end
    panel = page.locator(".end-panel")
    await panel.wait_for()
    assert await page.inner_text(".end-panel h3") == "Match ended: left alone"
    assert await page.inner_text(".end-panel .void-reason") == (
        "Reason: nobody played or watched it for too long"
    )
    explained = await page.inner_text(".end-panel .void-explained")
    assert "so the server ended it" in explained and "no result" in explained
    assert await page.is_visible("#play-again")
    await screenshot(page, "left-alone-ended")
    await page.context.close()
