"""Accessibility checked, not hoped: axe on the lobby and both match screens (desktop and
phone), 44 px touch targets on a phone, Spit cards pressed with Enter and Space, and cards
that glide to where they land unless the player asked for reduced motion."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page

from tests.web.axe import assert_accessible
from tests.web.bidding import bid_view, current, play_step, wait_for_newer
from tests.web.browser import (
    chromium,
    click_if_shown,
    focus_if_shown,
    last_update,
    new_page,
    screenshot,
    sign_in,
)
from tests.web.conftest import Arena
from tests.web.test_spit import next_move, spit_view, wait_for_change

pytestmark = pytest.mark.asyncio(loop_scope="module")

TOUCH_PX = 44
STEP_LIMIT = 300
GATE_NONE = 0

# Counts the glides (motion.ts's flying copies) from now on, in window.__glides.
COUNT_GLIDES = """() => {
    window.__glides = 0;
    new MutationObserver(records => {
        for (const r of records) for (const n of r.addedNodes)
            if (n.classList?.contains('glide-ghost')) window.__glides++;
    }).observe(document.body, {childList: true});
}"""


async def small_targets(page: Page) -> list[str]:
    """Every visible control smaller than TOUCH_PX either way, described."""
    found: list[str] = await page.evaluate(
        """px => [...document.querySelectorAll('button, input, select, summary, a[href]')]
            .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
            .map(e => e.closest('label') ?? e)  // a checkbox's target is its label
            .map(e => [e, e.getBoundingClientRect()])
            .filter(([e, r]) => r.width < px - 0.5 || r.height < px - 0.5)
            .map(([e, r]) =>
                `${e.outerHTML.slice(0, 80)} ${Math.round(r.width)}x${Math.round(r.height)}`)""",
        TOUCH_PX,
    )
    return found


async def landed(page: Page) -> None:
    """Stop the glides and wait for the last to land: a screenshot shows the table as it lies."""
    await page.emulate_media(reduced_motion="reduce")
    await page.wait_for_function("() => !document.querySelector('.glide-ghost')")


async def start_spit(page: Page) -> None:
    await page.select_option("#spit-level", "1")
    await page.click("#spit-computer")
    await page.wait_for_selector(".spit-table")


async def until_spit_play(page: Page) -> tuple[dict[str, Any], tuple[str, int, int]]:
    """Press on until the page's seat has a play from its stock; return the view and it."""
    for _ in range(STEP_LIMIT):
        update = await last_update(page)
        assert update is not None
        view = spit_view(update)
        if await focus_if_shown(page, "#ready"):
            await page.keyboard.press("Enter")  # the button's own Enter
        elif await click_if_shown(page, "#spit"):
            pass
        elif (move := next_move(view, update["seat"])) and move[0] == "play":
            return update, move
        elif move is not None:  # only a move into an empty space: make it, or play stalls
            await page.click(f"[data-stock='{move[1]}'] .card")
            await page.click(f"[data-stock='{move[2]}'] .card")
        try:
            await wait_for_change(page, update["seq"])
        except Exception:
            continue
    pytest.fail("no play came")


async def paused_at_a_play(page: Page) -> tuple[dict[str, Any], tuple[str, int, int]]:
    """Pause with P where the page's seat has a play from its stock; return the view and it.

    Paused, the table holds still while keys are pressed: the computer would otherwise play
    on, and might bring the Spit gate, where Enter and Space press Spit, not a card."""
    for _ in range(STEP_LIMIT):
        await until_spit_play(page)
        await page.keyboard.press("p")
        await page.wait_for_selector(".paused-banner")
        update = await last_update(page)
        assert update is not None and spit_view(update)["paused"] is True
        move = next_move(spit_view(update), update["seat"])
        if move is not None and move[0] == "play":
            return update, move
        await page.keyboard.press("p")  # the computer took the play meanwhile: on, and again
        await page.wait_for_selector(".paused-banner", state="detached")
    pytest.fail("no play came to pause at")


async def test_the_check_fails_on_a_button_with_no_name() -> None:
    async with chromium() as browser:
        page = await browser.new_page()
        await page.set_content('<html lang="en"><title>t</title><main><button></button></main>')
        with pytest.raises(AssertionError, match="button-name"):
            await assert_accessible(page)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
async def test_the_lobby_and_the_spit_table_pass_axe(arena: Arena, phone: bool) -> None:
    label = "phone" if phone else "desktop"
    page = await new_page(arena.browser, arena.url, phone=phone)
    await assert_accessible(page)  # the sign-in screen
    await sign_in(page, f"Axe {label}")
    await page.wait_for_selector(".ladder")
    await assert_accessible(page)
    await screenshot(page, f"a11y-lobby-{label}")
    if phone:
        assert await small_targets(page) == []
    await start_spit(page)
    await assert_accessible(page)
    await until_spit_play(page)
    await assert_accessible(page)
    await landed(page)
    await screenshot(page, f"a11y-spit-{label}")
    if phone:
        assert await small_targets(page) == []
    await page.context.close()


async def test_a_spit_card_is_picked_with_space_or_enter_and_played_with_space_and_glides(
    arena: Arena,
) -> None:
    page = await new_page(arena.browser, arena.url, motion=True)
    await sign_in(page, "Keys")
    await start_spit(page)
    await page.evaluate(COUNT_GLIDES)
    update, (_, stock, pile) = await paused_at_a_play(page)
    card = spit_view(update)["sides"][update["seat"]]["stock"][stock]["top"]["text"]
    picked = f"[data-stock='{stock}'] .card.selected"
    await page.focus(f"[data-stock='{stock}'] .card")
    await page.keyboard.press("Space")  # picks it; Space again drops the pick
    await page.wait_for_selector(picked)
    await page.keyboard.press("Space")
    await page.wait_for_selector(picked, state="detached")
    await page.keyboard.press("Enter")
    await page.wait_for_selector(picked)
    await page.keyboard.press("p")  # on again, the card still picked
    await page.wait_for_selector(".paused-banner", state="detached")
    await page.wait_for_selector(picked)
    await page.focus(f"[data-pile='{pile}']")
    await page.keyboard.press(" ")
    # It landed on the pile, or the computer got there first and the page says so.
    await page.wait_for_function(
        """([pile, card]) => document.querySelector(`[data-pile="${pile}"] .card`)
            ?.getAttribute('aria-label') === card || document.querySelector('.notice')""",
        arg=[pile, card],
    )
    if await page.locator(f"[data-pile='{pile}'] .card[aria-label='{card}']").count():
        await page.wait_for_function("() => window.__glides > 0")  # it flew there
    await page.context.close()


async def test_nothing_glides_for_a_player_who_asked_for_reduced_motion(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    await page.emulate_media(reduced_motion="reduce")
    await sign_in(page, "Still")
    await start_spit(page)
    await page.evaluate(COUNT_GLIDES)
    for _ in range(3):
        update, (_, stock, pile) = await until_spit_play(page)
        await page.click(f"[data-stock='{stock}'] .card")
        await page.click(f"[data-pile='{pile}']")
        await wait_for_change(page, update["seq"])
    assert await page.evaluate("() => window.__glides") == 0
    await page.context.close()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
async def test_the_bid_table_passes_axe(arena: Arena, phone: bool) -> None:
    label = "phone" if phone else "desktop"
    page = await new_page(arena.browser, arena.url, phone=phone)
    await sign_in(page, f"Bid axe {label}")
    await page.click("#bid-computer")
    await page.wait_for_selector(".bid-table")
    await assert_accessible(page)
    state: dict[str, bool] = {}
    for _ in range(STEP_LIMIT):
        update = await current(page)
        view = bid_view(update)
        mine = view["decide"] == [update["seat"]] and update["decision"]["gate"] == GATE_NONE
        if mine and view.get("board", {}).get("placements") and not view.get("auction"):
            break  # my turn to play, on a board with tiles
        acted = mine or update["decision"]["gate"] != GATE_NONE
        if acted and not await play_step(page, update["seq"], True, state):
            break
        await wait_for_newer(page, update["seq"])
    await page.wait_for_selector(".hand-tile")
    await assert_accessible(page)
    await landed(page)
    await screenshot(page, f"a11y-bid-{label}")
    if phone:
        assert await small_targets(page) == []
    await page.context.close()
