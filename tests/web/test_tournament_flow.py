"""A tournament from the page: created with the form, joined from the lobby, and each game
reached with no click (the second one too), with the tournament's bar above it; a reload
mid-tournament lands in the current game, and Withdraw reflects the player's state."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from tests.web.browser import new_page, resign, screenshot, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")

NEXT_GAME_MS = 30_000  # the pairing runs every second; a game's result takes a moment


async def shown_match(page: Page) -> str:
    """The match id of the update the page shows now ("" when none)."""
    match_id: str = await page.evaluate("() => window.__pf.last()?.update?.matchId ?? ''")
    return match_id


async def wait_for_game_other_than(page: Page, previous: str) -> str:
    await page.wait_for_function(
        "previous => { const id = window.__pf.last()?.update?.matchId; "
        "return id && id !== previous && !!document.querySelector('section.match'); }",
        arg=previous,
        timeout=NEXT_GAME_MS,
    )
    return await shown_match(page)


async def test_a_tournament_takes_both_players_from_game_to_game(arena: Arena) -> None:
    ann = await new_page(arena.browser, arena.url)
    ben = await new_page(arena.browser, arena.url, phone=True)
    await sign_in(ann, "Ann T")
    await sign_in(ben, "Ben T")

    # Created from the form: the creator is in, on the tournament's page, with its bar.
    await ann.click(".create-tournament summary")
    await ann.fill("#tournament-name", "Quick Spit")
    await ann.select_option("#tournament-game", label="Spit")
    await ann.select_option("#tournament-length", "5")
    await ann.uncheck("#tournament-rated")
    await ann.click("#tournament-create")
    await ann.wait_for_selector(".tournament-page .standings-table")
    await ann.locator(".tournament-page .meta").filter(has_text="1 entrant").wait_for()
    assert "1 entrants" not in await ann.inner_text(".tournament-page .meta")
    await ann.locator("#tournament-bar").filter(has_text="Quick Spit").wait_for()
    assert await ann.is_visible("#tournament-withdraw")
    await screenshot(ann, "tournament-page-created")

    # Joined from the lobby's list: both are paired, and both pages open the game.
    entry = ben.locator("[data-tournament]").filter(has_text="Quick Spit")
    await entry.locator("button.join").click()
    first = await wait_for_game_other_than(ann, "")
    assert await wait_for_game_other_than(ben, "") == first
    for page in (ann, ben):
        bar = await page.inner_text("#tournament-bar")
        assert "Tournament: Quick Spit" in bar and "left" in bar, bar
    await screenshot(ben, "tournament-game-phone")

    # The first game ends; the next one reaches both pages with no click.
    await resign(ann)
    for page in (ann, ben):
        await page.wait_for_selector(".end-panel")
    second = await wait_for_game_other_than(ann, first)
    assert await wait_for_game_other_than(ben, first) == second
    await ben.locator("#tournament-bar").filter(has_text="2 points").wait_for()  # won the first
    await screenshot(ann, "tournament-second-game")

    # A reload mid-tournament lands in the current game.
    await ben.reload()
    await ben.wait_for_function(
        "id => window.__pf.last()?.update?.matchId === id", arg=second, timeout=NEXT_GAME_MS
    )
    assert await ben.is_visible("#tournament-bar")

    # The tournament's page lists my games, and Withdraw reflects my state.
    await ben.click("#tournament-open")
    games = ben.locator(".my-games li")
    await games.nth(1).wait_for()
    assert "vs Ann T (guest): won" in await games.nth(0).inner_text()
    await ben.click("#tournament-withdraw")
    await ben.wait_for_selector("#tournament-join")
    await ben.wait_for_selector("#tournament-bar", state="detached")
    await screenshot(ben, "tournament-page-withdrawn-phone")
