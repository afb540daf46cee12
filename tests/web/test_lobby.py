"""The lobby in a phone-sized page: ladders, tournament standings that update live, and
refusals told in words."""

from __future__ import annotations

import json
import time

import aiohttp
import pytest
from playwright.async_api import Page

from clients.arena import ArenaClient
from photofinish.game.v1 import game_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from tests.web.browser import new_page, screenshot, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")

HOUR_MS = 3_600_000


async def test_tournament_standings_update_live_in_the_lobby(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url, phone=True)
    await sign_in(page, "Tess")
    await page.wait_for_selector("table.ladder")
    # A wrong code is refused in the server's words, its reason named once.
    await page.fill("#spit-code", "NOPE42")
    await page.click("#spit-accept")
    status = page.locator(".lobby-status")
    await status.filter(has_text="NOPE42").wait_for()
    said = await status.inner_text()
    assert said == "Could not start: no open challenge has the code 'NOPE42' (no_such_challenge)"
    async with aiohttp.ClientSession() as http:
        host = ArenaClient(http, arena.url)
        await host.sign_in("Host")
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
        await page.wait_for_function(
            "() => document.querySelector('.standings-table')?.textContent.includes('Tess')"
        )
        await host.join_tournament(tournament.tournament_id)
        await page.wait_for_function(
            "() => document.querySelector('.standings-table')?.textContent.includes('Host')"
        )
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
        "Could not create the tournament: you have 2 tournaments that have not finished,"
        " the most at once: create another once one has finished (too_many_tournaments)"
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
    assert await status.inner_text() == (
        "Could not start: you have 3 matches against the computer or on one device in play,"
        " the most at once: finish or resign one to start another (too_many_matches)"
    )
