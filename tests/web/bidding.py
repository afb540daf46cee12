"""Driving a Spectacular Bid board in the page: one click-through step at a time."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from tests.web.browser import click_if_shown, last_update, screenshot


def bid_view(update: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = update["view"]["kind"]["value"]
    return view


async def wait_for_newer(page: Page, seq: str) -> None:
    await page.wait_for_function(
        "seq => { const l = window.__pf.last(); "
        "return l && l.update && l.update.seq.toString() !== seq; }",
        arg=seq,
    )


# The first legal end, then whether it is still in the page three frames later. Nothing
# changes on its own while a player holds a selected tile: a board laid again in the meantime
# would take the tap on the end the player saw (the page fits the board before showing it).
_SLOT_STAYS = """async () => {
    const slot = document.querySelector('.end-slot.legal');
    if (!slot) return false;
    for (let frame = 0; frame < 3; frame++) await new Promise(requestAnimationFrame);
    return slot.isConnected;
}"""


async def play_step(page: Page, bid_once: bool, state: dict[str, bool]) -> bool:
    """Take the page's one obvious action; return False when there is none for this page.

    In an auction: bid the minimum once when ``bid_once``, afterwards accept (or pass).
    """
    for selector in ("#reveal", "#ready"):
        if await click_if_shown(page, selector):
            return True
    if await page.locator(".auction-buttons").count():
        if await page.locator("#bid").count() and bid_once and not state.get("bid"):
            await screenshot(page, "bid-auction")
            await page.click("#bid")
            state["bid"] = True
            return True
        for selector in ("#accept", "#pass-bid", "#bid"):
            if await page.locator(selector).count():
                await page.click(selector)
                return True
    playable = page.locator(".hand-tile.playable")
    if await playable.count():
        # A tile with one way to go is played by its click; else it is selected and its
        # legal ends light up on the board.
        tile = playable.first
        key = await tile.get_attribute("data-tile")
        await tile.click()
        if await page.locator(f".hand-tile.selected[data-tile='{key}']").count():
            assert await page.evaluate(_SLOT_STAYS), "the board was laid again under the tile"
            await page.locator(".end-slot.legal").first.click()
        return True
    return await click_if_shown(page, "#draw")


def describe(update: dict[str, Any]) -> str:
    """The match as a failing test should report it: who decides, the clocks, how it ended."""
    view = bid_view(update)
    keys = ("seq", "status", "decision", "clock", "outcome", "flag", "voidReason", "awaySeats")
    shown = {key: update.get(key) for key in keys}
    shown["view"] = {key: view.get(key) for key in ("roundNo", "decide", "gate", "auction")}
    return repr(shown)


async def current(page: Page) -> dict[str, Any]:
    update = await last_update(page)
    assert update is not None
    return update
