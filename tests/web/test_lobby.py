"""The lobby in a phone-sized page: ladders, tournament standings that update live, and
refusals told in words. A rated tournament is for accounts: its players sign up, and a guest
is told so, with the Sign up that keeps its player id."""

from __future__ import annotations

import json
import time

import aiohttp
import pytest
from playwright.async_api import Page

from clients.arena import ArenaClient, unique_username
from photofinish.game.v1 import game_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from tests.web.axe import assert_accessible
from tests.web.browser import (
    DESKTOP,
    PASSWORD,
    PHONE,
    english,
    new_page,
    screenshot,
    sign_in,
    sign_up_new,
)
from tests.web.conftest import Arena
from tests.web.test_accessibility import small_targets

pytestmark = pytest.mark.asyncio(loop_scope="module")

HOUR_MS = 3_600_000


async def test_tournament_standings_update_live_in_the_lobby(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url, phone=True)
    tess = await sign_up_new(page, "Tess")
    await page.wait_for_selector("table.ladder")
    # A wrong code is refused in the page's words for the reason.
    await page.fill("#spit-code", "NOPE42")
    await page.click("#spit-accept")
    status = page.locator(".lobby-status")
    await status.filter(has_text="Could not start").wait_for()
    said = await status.inner_text()
    assert said == f"Could not start: {english('reason.no_such_challenge')}"
    async with aiohttp.ClientSession() as http:
        host = ArenaClient(http, arena.url)
        await host.sign_up_new("Host")
        tournament = await host.create_tournament(
            tournaments_pb2.CreateTournamentRequest(
                name="Sunday Bid",
                game=game_pb2.GAME_BID,
                rated=True,
                starts_at_unix_ms=int(time.time() * 1000) + HOUR_MS,  # upcoming: nobody paired
                duration_s=600,
            )
        )
        entry = page.locator(f"[data-tournament='{tournament.tournament_id}']")
        await entry.locator("button.join").click()
        standings = page.locator(".standings-table tbody tr")
        shows = "name => document.querySelector('.standings-table')?.textContent.includes(name)"
        await page.wait_for_function(shows, arg=tess)
        await host.join_tournament(tournament.tournament_id)
        await page.wait_for_function(shows, arg=host.name)
        assert await standings.count() == 2
    await screenshot(page, "lobby-phone-tournament")


def upcoming(name: str) -> tournaments_pb2.CreateTournamentRequest:
    starts = int(time.time() * 1000) + HOUR_MS
    return tournaments_pb2.CreateTournamentRequest(
        name=name, game=game_pb2.GAME_SPIT, starts_at_unix_ms=starts, duration_s=600
    )


async def same_player(http: aiohttp.ClientSession, arena: Arena, page: Page) -> ArenaClient:
    """Return a client signed in as the page's player (its token, from the page's storage)."""
    session = json.loads(await page.evaluate("localStorage.getItem('pf.session')"))
    client = ArenaClient(http, arena.url)
    client.web.token, client.player_id = session["token"], session["playerId"]
    return client


async def test_a_tournament_past_the_cap_is_refused_in_words(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    await sign_in(page, "Maker")
    async with aiohttp.ClientSession() as http:
        maker = await same_player(http, arena, page)
        for name in ("First", "Second"):
            await maker.create_tournament(upcoming(name))
    await page.click(".create-tournament summary")
    await page.fill("#tournament-name", "Third")
    await page.click("#tournament-create")
    status = page.locator(".tournament-status")
    await status.filter(has_text="Could not").wait_for()
    assert await status.inner_text() == (
        f"Could not create the tournament: {english('reason.too_many_tournaments')}"
    )


async def test_a_match_past_the_cap_is_refused_in_words(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    await sign_in(page, "Solo")
    async with aiohttp.ClientSession() as http:
        solo = await same_player(http, arena, page)
        for _ in range(3):
            await solo.play_hot_seat(game_pb2.GAME_BID)  # in other tabs, say
    await page.click("#spit-computer")
    status = page.locator(".lobby-status")
    await status.filter(has_text="Could not").wait_for()
    assert await status.inner_text() == f"Could not start: {english('reason.too_many_matches')}"


async def looked_at(page: Page, name: str) -> None:
    """Photograph the screen, run axe on it, and on a phone check its 44 px targets."""
    await screenshot(page, name)
    await assert_accessible(page)
    if page.viewport_size == PHONE:
        assert await small_targets(page) == [], name


async def test_a_guest_is_told_a_rated_tournament_is_for_accounts_and_signs_up_to_join(
    arena: Arena,
) -> None:
    """A guest's Join of a rated tournament, in the lobby's list, says it is for accounts
    (no join is tried); the tournament's page offers Sign up instead of Join, and from it
    the guest signs up, keeps its player id, comes back to the page and joins."""
    async with aiohttp.ClientSession() as http:
        host = ArenaClient(http, arena.url)
        await host.sign_up_new("Rated_Host")
        request = upcoming("Rated Sunday")
        request.rated = True
        tournament = await host.create_tournament(request)
        await host.join_tournament(tournament.tournament_id)
    page = await new_page(arena.browser, arena.url, phone=True)
    await sign_in(page, "Gil")
    guest = json.loads(await page.evaluate("localStorage.getItem('pf.session')"))
    entry = page.locator(f"[data-tournament='{tournament.tournament_id}']")
    assert "rated" in await entry.inner_text()
    await entry.locator("button.join").click()
    status = page.locator(".tournament-status")
    await status.filter(has_text="rated tournaments are for accounts").wait_for()
    assert "account_needed" not in await status.inner_text()
    await looked_at(page, "lobby-rated-tournament-guest-phone")

    await entry.locator("button.standings").click()
    note = page.locator("#tournament-account-needed")
    await note.wait_for()
    assert "This tournament is rated" in await note.inner_text()
    assert await page.locator("#tournament-join").count() == 0
    assert "Gil" not in await page.inner_text(".standings-table")  # nobody joined
    await looked_at(page, "tournament-rated-guest-phone")
    await page.set_viewport_size(DESKTOP)
    await looked_at(page, "tournament-rated-guest-desktop")
    await page.set_viewport_size(PHONE)

    await note.locator("#tournament-sign-up").click()
    await page.fill("#new-name", unique_username("Gil"))
    await page.fill("#new-password", PASSWORD)
    await page.click("#sign-up")
    await page.click("#tournament-join")  # back on the tournament's page, an account now
    await page.locator(".entry .entered").wait_for()
    account = json.loads(await page.evaluate("localStorage.getItem('pf.session')"))
    assert account["playerId"] == guest["playerId"] and account["account"]
    await page.context.close()
