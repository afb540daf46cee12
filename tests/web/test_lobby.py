"""The lobby in a phone-sized page: ladders, and tournament standings that update live."""

from __future__ import annotations

import time

import aiohttp
import pytest

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
