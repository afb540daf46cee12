"""After the end: a rematch online (both must offer; the same game and terms, on both pages
at once), and "play again" against the computer at the same level."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from tests.web.browser import last_update, new_page, resign, screenshot, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def shown_match(page: Page) -> str:
    update = await last_update(page)
    assert update is not None
    return str(update["matchId"])


async def wait_for_another_match(page: Page, previous: str) -> None:
    await page.wait_for_function(
        "previous => { const u = window.__pf.last()?.update; "
        "return u && u.matchId !== previous && !document.querySelector('.end-panel'); }",
        arg=previous,
    )


async def test_a_rematch_both_offer_opens_the_same_game_on_both_pages(arena: Arena) -> None:
    ann = await new_page(arena.browser, arena.url)
    ben = await new_page(arena.browser, arena.url, phone=True)
    await sign_in(ann, "Ann R")
    await sign_in(ben, "Ben R")
    await ann.uncheck("#spit-rated")
    await ann.click("#spit-challenge")
    code = await ann.inner_text("#challenge-code")
    banner = await ann.inner_text(".lobby-status")
    assert banner.startswith(f"Spit, casual: share this code {code} Copy"), banner
    await ben.fill("#spit-code", code)
    await ben.click("#spit-accept")
    for page in (ann, ben):
        await page.wait_for_selector(".spit-table")
    first = await shown_match(ann)
    assert await ann.inner_text(".match-terms") == "Spit · casual"  # not the raw match id
    await resign(ben)
    for page in (ann, ben):
        await page.wait_for_selector(".end-panel #rematch")
    await ann.click("#rematch")
    await ann.locator(".rematch-status").filter(has_text="waiting for Ben R (guest)").wait_for()
    offered = ben.locator(".rematch-status").filter(has_text="Ann R (guest) offers a rematch")
    await offered.wait_for()
    assert await ben.inner_text("#rematch") == "Accept the rematch"
    await screenshot(ben, "rematch-offered-phone")
    await ben.click("#rematch")
    for page in (ann, ben):
        await wait_for_another_match(page, first)
    second = await shown_match(ann)
    assert await shown_match(ben) == second
    update = await last_update(ann)
    assert update is not None
    assert (update["game"], update.get("rated", False), update["mode"]) == (1, False, 1)
    assert {p["name"] for p in update["players"]} == {"Ann R", "Ben R"}
    await ann.context.close()
    await ben.context.close()


async def test_play_again_against_the_computer_keeps_the_level(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    await sign_in(page, "Cal")
    await page.select_option("#spit-level", label="Hard (fast)")
    await page.click("#spit-computer")
    await page.wait_for_selector(".spit-table")
    first = await shown_match(page)
    await resign(page)
    await page.click(".end-panel #play-again")
    await wait_for_another_match(page, first)
    stored = await page.evaluate("() => JSON.parse(localStorage.getItem('pf.match'))")
    assert stored["level"] == 3  # LEVEL_HARD
    assert stored["matchId"] != first
    await page.context.close()
