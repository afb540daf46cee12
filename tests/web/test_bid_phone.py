"""Spectacular Bid against the computer on a phone (390x844) and on a desktop (1100x900):
everything a decision needs on the first screen with no scrolling, a waiting player's grace
that does not read 0.0, one click on a tile with one way to go plays it, a play log in play
order, refusals said in the match's notices, and a round's end explained over its final
board until Continue is pressed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, ViewportSize

from tests.web.bidding import bid_view, current, play_step, wait_for_newer, where_it_stood
from tests.web.browser import DESKTOP, PHONE, new_page, screenshot, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")

STEP_LIMIT = 600
GATE_NONE = 0
GATE_CONTINUE = 2
REFUSAL = ".notices .notice-line:first-child .notice.refusal"
# Every decision needs both players' panels (names, chips, clocks), the board and the hand.
ALWAYS = (".scoreboard .player", ".player-name", ".balance", ".clock", ".board-wrap", ".hand")
PLAY = (".hand-tile.playable", ".end-slot.legal", ".actions button")
AUCTION = ("#bid", "#bid-amount", "#pass-bid", "#accept", ".actions button")
ROUND_END = (".round-end", "#ready", ".final-board .domino-board")
WANTED = {"play", "one-click", "auction", "round-end"}


async def boxes(page: Page, selectors: tuple[str, ...]) -> list[dict[str, Any]]:
    """Each element's box in page coordinates, with the top of the page scrolled in."""
    await page.evaluate("window.scrollTo(0, 0)")
    found: list[dict[str, Any]] = await page.evaluate(
        """sels => sels.flatMap(sel => [...document.querySelectorAll(sel)].map(e => {
            const r = e.getBoundingClientRect();
            return {sel, left: r.left + scrollX, top: r.top + scrollY,
                    right: r.right + scrollX, bottom: r.bottom + scrollY};
        }))""",
        list(selectors),
    )
    return found


async def assert_on_one_screen(page: Page, size: ViewportSize, needs: tuple[str, ...]) -> None:
    """No sideways scrolling, and every element the decision needs inside the first screen."""
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], f"the page is {width} px wide"
    found = await boxes(page, ALWAYS + needs)
    assert {box["sel"] for box in found} >= set(ALWAYS)
    outside = [
        box
        for box in found
        if box["left"] < 0
        or box["top"] < 0
        or box["right"] > size["width"]
        or box["bottom"] > size["height"]
    ]
    assert not outside, outside


async def assert_refused(page: Page, words: str) -> None:
    """The newest notice is a refusal that says ``words``."""
    await page.wait_for_function(
        "([sel, words]) => document.querySelector(sel)?.textContent.includes(words)",
        arg=[REFUSAL, words],
    )


async def check_play(page: Page, size: ViewportSize, label: str, seat: int) -> None:
    """My turn to play: it fits, the waiting grace is blank, a dead tile says why."""
    await screenshot(page, f"bid-{label}-decision")
    await assert_on_one_screen(page, size, PLAY)
    waiting = await page.inner_text(f"[data-clock-seat='{1 - seat}'] .grace")
    assert waiting == "", f"the waiting player's grace reads {waiting!r}"
    unplayable = page.locator(".hand-tile.unplayable")
    if await unplayable.count():
        key = await unplayable.first.get_attribute("data-tile")
        await unplayable.first.click()
        await assert_refused(page, f"[{key}]")


def one_way_tile(view: dict[str, Any]) -> str | None:
    """A tile in my hand with exactly one legal play (a forced opening, a single end)."""
    ways: dict[str, int] = {}
    for command in view.get("legal", []):
        if command["kind"]["case"] == "play":
            tile = command["kind"]["value"]["tile"]
            key = f"{tile['low']}|{tile['high']}"
            ways[key] = ways.get(key, 0) + 1
    return next((key for key, count in ways.items() if count == 1), None)


async def check_one_click(page: Page, seq: str, key: str) -> None:
    """One click on a tile with one way to go plays it: no second click, no button."""
    await page.click(f".hand-tile[data-tile='{key}']")
    await wait_for_newer(page, seq)
    assert await page.locator(f".domino-board [data-tile='{key}']").count() == 1


async def check_round_end(page: Page, size: ViewportSize, label: str, round_no: int) -> None:
    """At Continue: the round's end in words, over the round's final board."""
    await page.wait_for_selector(".round-end")
    assert f"Round {round_no}:" in await page.inner_text(".round-end")
    assert await page.locator(".final-board .domino-board [data-tile]").count() > 0
    await screenshot(page, f"bid-{label}-round-end")
    await assert_on_one_screen(page, size, ROUND_END)


async def check_auction(page: Page, size: ViewportSize, label: str, view: dict[str, Any]) -> None:
    """My auction decision fits; a bid below the minimum is refused in the notices."""
    await assert_on_one_screen(page, size, AUCTION)
    low = int(view["auction"]["minBid"]) - 3
    await page.fill("#bid-amount", str(low))
    await page.click("#bid")
    await assert_refused(page, f"A bid of {low} is below the minimum")
    await screenshot(page, f"bid-{label}-auction")


async def walk(page: Page, size: ViewportSize, label: str) -> set[str]:
    """Play the match through the page until every check in WANTED was made (or it ends)."""
    seen: set[str] = set()
    state: dict[str, bool] = {}
    for _ in range(STEP_LIMIT):
        if seen >= WANTED or await page.locator(".end-panel").count():
            break
        update = await current(page)
        view = bid_view(update)
        seat, gate = update["seat"], update["decision"]["gate"]
        mine = view["decide"] == [seat] and gate == GATE_NONE
        if mine and "play" not in seen and await page.locator(".hand-tile.playable").count():
            seen.add("play")
            await check_play(page, size, label, seat)
        one_way = one_way_tile(view) if mine else None
        if one_way and "one-click" not in seen:
            seen.add("one-click")
            await check_one_click(page, update["seq"], one_way)
            continue
        if mine and "auction" not in seen and await page.locator("#bid").count():
            seen.add("auction")
            await check_auction(page, size, label, view)
        at_continue = gate == GATE_CONTINUE and await page.locator("#ready").count()
        if at_continue and "round-end" not in seen:
            seen.add("round-end")
            await check_round_end(page, size, label, view["roundNo"] - 1)
        if (mine or gate != GATE_NONE) and not await play_step(page, update["seq"], False, state):
            continue
        try:
            await wait_for_newer(page, update["seq"])
        except Exception:
            continue
    return seen


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
async def test_a_bid_match_fits_one_screen_and_explains_each_round(
    arena: Arena, phone: bool
) -> None:
    size = PHONE if phone else DESKTOP
    label = "phone" if phone else "desktop"
    page = await new_page(arena.browser, arena.url, phone=phone)
    await sign_in(page, f"Pocket {label}")
    await page.click("#bid-computer")
    await page.wait_for_selector("#ready")
    assert "0.0" not in await page.locator("[data-clock-seat] .grace").all_inner_texts()
    await assert_on_one_screen(page, size, ("#ready",))
    await page.locator(".hand-tile").first.click()
    await assert_refused(page, "Press Start first")
    await screenshot(page, f"bid-{label}-start")

    try:
        seen = await walk(page, size, label)
    except PlaywrightError as error:
        stood = await where_it_stood(page)
        pytest.fail(f"{error}\nthe match then: {stood}\nthe bots: {arena.log_tail('bots')}")
    assert seen >= WANTED, f"{seen}; the match: {await where_it_stood(page)}"
    numbers = await page.locator(".play-log li").evaluate_all("items => items.map(li => li.value)")
    assert numbers and numbers == list(range(numbers[0], numbers[0] + len(numbers))), numbers
    assert numbers[0] > 1  # the log keeps the newest plays, still numbered from the first
