"""Two people in two browser contexts play each other online and see the same board; a
reload in the middle of the match resumes it, with the server's clock still running."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from tests.web.bidding import bid_view, current, play_step, wait_for_newer
from tests.web.browser import new_page, screenshot, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def board_of(page: Page) -> list[str]:
    tiles = await page.locator(".domino-board [data-tile]").evaluate_all(
        "tiles => tiles.map(t => t.dataset.tile)"
    )
    return [str(tile) for tile in tiles]


async def deciding(page: Page) -> bool:
    update = await current(page)
    return bool(update["seat"] in bid_view(update)["decide"])


async def same_step(a: Page, b: Page) -> None:
    """Wait until both pages hold the same step of the match."""
    seq = max(int((await current(a))["seq"]), int((await current(b))["seq"]))
    for page in (a, b):
        await page.wait_for_function(
            "seq => BigInt(window.__pf.last()?.update?.seq ?? 0) >= BigInt(seq)", arg=str(seq)
        )


async def test_two_browsers_play_online_and_a_reload_resumes_the_match(arena: Arena) -> None:
    ann = await new_page(arena.browser, arena.url)
    ben = await new_page(arena.browser, arena.url, phone=True)
    await sign_in(ann, "Ann")
    await sign_in(ben, "Ben")
    await ann.click("#bid-challenge")
    code = await ann.inner_text("#challenge-code")
    await screenshot(ann, "online-challenge-code")
    await ben.fill("#bid-code", code)
    await ben.click("#bid-accept")
    for page in (ann, ben):
        await page.wait_for_selector("#ready")
        await page.click("#ready")
    for page in (ann, ben):
        await page.wait_for_selector(".hand-tile")
    for _ in range(3):  # a few plays, each by whoever's turn it is
        await same_step(ann, ben)
        movers = [p for p in (ann, ben) if await deciding(p)]
        assert len(movers) == 1
        seq = (await current(movers[0]))["seq"]
        assert await play_step(movers[0], seq, False, {})
        await wait_for_newer(movers[0], seq)
    await same_step(ann, ben)
    assert await board_of(ann) == await board_of(ben)
    assert bid_view(await current(ann))["balances"] == bid_view(await current(ben))["balances"]
    await screenshot(ann, "online-ann")
    await screenshot(ben, "online-ben-phone")

    before = await current(ann)
    board_before = await board_of(ann)
    await ann.reload()
    await ann.wait_for_selector(".bid-table")
    after = await current(ann)
    assert after["matchId"] == before["matchId"]
    assert int(after["seq"]) >= int(before["seq"])
    # Nobody moved during the reload and a player's decision was running (a play, not a
    # gate), so the clock check below always runs instead of being skipped. The update may
    # be a newer one all the same: a reload slower than the decision's grace (a loaded
    # machine) sees the clock pass from grace to bank, with no move.
    running = before["clock"]["running"]
    unchanged = (
        await board_of(ann) == board_before
        and bid_view(after)["decide"] == bid_view(before)["decide"]
        and after["clock"]["running"] == running
    )
    assert running >= 0 and unchanged, (before["clock"], after["seq"], after["clock"])
    spent = int(before["clock"]["seats"][running]["graceMs"]) + int(
        before["clock"]["seats"][running]["bankMs"]
    )
    left = int(after["clock"]["seats"][running]["graceMs"]) + int(
        after["clock"]["seats"][running]["bankMs"]
    )
    assert left < spent  # the server's clock ran on through the reload
    assert await board_of(ann) == await board_of(ben)
    await screenshot(ann, "online-ann-after-reload")
