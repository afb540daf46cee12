"""Driving a Spectacular Bid board in the page: one click-through step at a time."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from tests.web.browser import click_first_reachable, last_update, screenshot


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


async def click_if_still(page: Page, seq: str, *selectors: str) -> str | None:
    """Click the first of ``selectors`` shown, if the page still shows update ``seq``: one
    that came meanwhile (the computer's pass, the next deal) is looked at first, never
    clicked through (``click_first_reachable``: one turn of the page, a person's click)."""
    return await click_first_reachable(page, selectors, seq)


async def play_step(page: Page, seq: str, bid_once: bool, state: dict[str, bool]) -> bool:
    """Take the page's one obvious action on update ``seq``; return False when there is
    none for this page, or when a newer update came first (the caller looks again).

    In an auction: bid the minimum once when ``bid_once``, afterwards accept (or pass).
    """
    if await click_if_still(page, seq, "#reveal", "#ready"):
        return True
    if await page.locator(".auction-buttons").count():
        if bid_once and not state.get("bid") and await page.locator("#bid").count():
            await screenshot(page, "bid-auction")
            if not await click_if_still(page, seq, "#bid"):
                return False
            state["bid"] = True
            return True
        return await click_if_still(page, seq, "#accept", "#pass-bid", "#bid") is not None
    # A tile with one way to go is played by its click; else it is selected and its legal
    # ends light up on the board.
    key = await click_if_still(page, seq, ".hand-tile.playable")
    if key is not None:
        if await page.locator(f".hand-tile.selected[data-tile='{key}']").count():
            assert await page.evaluate(_SLOT_STAYS), "the board was laid again under the tile"
            await page.locator(".end-slot.legal").first.click()
        return True
    return await click_if_still(page, seq, "#draw") is not None


def describe(update: dict[str, Any]) -> str:
    """The match as a failing test should report it: who decides, the clocks, how it ended."""
    view = bid_view(update)
    keys = (
        "seat",
        "seq",
        "status",
        "decision",
        "clock",
        "outcome",
        "flag",
        "voidReason",
        "awaySeats",
    )
    shown = {key: update.get(key) for key in keys}
    shown["view"] = {key: view.get(key) for key in ("roundNo", "decide", "gate", "auction")}
    return repr(shown)


async def where_it_stood(page: Page) -> str:
    """The match as ``describe`` gives it, and the newest notices the page showed (a
    refusal, a lost connection)."""
    notices = await page.locator(".notices .notice-line").all_inner_texts()
    return f"{describe(await current(page))}\nthe notices, newest first: {notices[:5]}"


async def current(page: Page) -> dict[str, Any]:
    update = await last_update(page)
    assert update is not None
    return update
