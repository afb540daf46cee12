"""A rated match given up before one's first move is aborted, and both pages say so: the
reason, and no rating change (docs/ratings.md, "What cannot be farmed"). Rated play is for
accounts: both players sign up."""

from __future__ import annotations

import pytest

from tests.web.browser import new_page, resign, screenshot, sign_up_new
from tests.web.conftest import Arena

# A void's reason as the page words an aborted match (void.aborted).
ABORTED = "a player resigned or left before their first move"

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_resigning_a_rated_match_at_the_gate_aborts_it_on_both_pages(arena: Arena) -> None:
    ann = await new_page(arena.browser, arena.url)
    ben = await new_page(arena.browser, arena.url, phone=True)
    await sign_up_new(ann, "Ann_Gate")
    await sign_up_new(ben, "Ben_Gate")
    assert await ann.is_checked("#spit-rated")
    await ann.click("#spit-challenge")
    code = await ann.inner_text("#challenge-code")
    await ben.fill("#spit-code", code)
    await ben.click("#spit-accept")
    for page in (ann, ben):
        await page.wait_for_selector(".spit-table")
    await resign(ben)  # before any move of his
    for page in (ann, ben):
        panel = page.locator(".end-panel")
        await panel.wait_for()
        assert "Match void" in await panel.inner_text()
        reason = await page.inner_text(".end-panel .void-reason")
        assert reason == f"Reason: {ABORTED}"
        await (
            page.locator(".end-panel .rating-change")
            .filter(has_text=f"No rating change (void: {ABORTED}).")
            .wait_for()
        )
    await screenshot(ann, "aborted-at-the-gate-desktop")
    await screenshot(ben, "aborted-at-the-gate-phone")
    await ann.context.close()
    await ben.context.close()
