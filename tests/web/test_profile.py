"""A player's profile, reached from their name on a ladder: each game's rating with its RD
and rank, the matches won, lost and voided, and the rating over time as a chart; a guest
has none. Photographed and checked with axe on a desktop and a phone, in English and in
Arabic."""

from __future__ import annotations

import re
import time
import uuid

import aiohttp
import nats
import pytest

from clients.arena import ArenaClient, unique_username
from games.registry import SPIT
from photofinish.game.v1 import game_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from services.ratings.model import Finished, MatchId, Mode, Player, PlayerId, Voided
from tests.ratings.results import publish
from tests.web.browser import PASSWORD, english, new_page, resign, sign_in
from tests.web.conftest import Arena
from tests.web.test_names import both_sizes

pytestmark = pytest.mark.asyncio(loop_scope="module")

WINS, LOSSES = 4, 1


async def rated_games(arena: Arena, who: Player) -> None:
    """``who`` wins WINS rated Spit matches and loses LOSSES, and one is voided, each
    against a made-up opponent, published as the arbitration publishes results."""
    connection = await nats.connect(arena.nats_url)
    try:
        js = connection.jetstream()
        for number in range(WINS + LOSSES + 1):
            other = Player(PlayerId(f"a_{uuid.uuid4().hex[:8]}"), f"Rival{number}")
            match = MatchId(f"profile-{uuid.uuid4().hex}")
            if number == WINS + LOSSES:
                await publish(js, Voided(match, SPIT, (who, other), "event_loop_lag", "lag"))
                continue
            winner = 0 if number < WINS else 1
            await publish(js, Finished(match, SPIT, (who, other), winner, True, Mode.ONLINE))
    finally:
        await connection.close()


async def test_a_ladder_name_opens_the_players_profile_with_its_chart(arena: Arena) -> None:
    async with aiohttp.ClientSession() as http:
        pia = ArenaClient(http, arena.url)
        await pia.sign_up(unique_username("Pia"), PASSWORD, "a test")
        later = int((time.time() + 3600) * 1000)  # an hour from now: she has entered it
        cup = await pia.create_tournament(
            tournaments_pb2.CreateTournamentRequest(
                name="Pia's cup", game=game_pb2.GAME_SPIT, starts_at_unix_ms=later, duration_s=600
            )
        )
        await pia.join_tournament(cup.tournament_id)
        assert (await pia.player_tournaments(pia.player_id)).entered == 1
    await rated_games(arena, Player(PlayerId(pia.player_id), pia.name))

    page = await new_page(arena.browser, arena.url)
    await sign_in(page, "Lena")
    name = page.locator("table.ladder[data-game='1'] button.player-games", has_text=pia.name)
    await name.wait_for()
    assert await name.get_attribute("title") == english("profile.open").replace("{name}", pia.name)
    await name.click()
    await page.locator("#profile-name", has_text=pia.name).wait_for()
    spit = page.locator(".profile-game[data-game='1']")
    await spit.locator(".uplot canvas").first.wait_for()
    assert await spit.locator("h3").inner_text() == "Spit"
    rating = await spit.locator(".profile-rating").inner_text()
    assert re.fullmatch(r"Rating \d+ ± \d+ · #\d+ of \d+", rating), rating
    assert await spit.locator(".profile-results").inner_text() == (
        f"Won {WINS} · lost {LOSSES} · void 1"
    )
    label = await spit.locator(".profile-chart").get_attribute("aria-label")
    rated = WINS + LOSSES
    assert label is not None and label.startswith(
        f"Rating after each of the last {rated} rated games: from "
    )
    assert "#profile/" in page.url
    assert await page.inner_text(".profile-entered") == "Entered 1 tournament."
    await both_sizes(page, "profile")

    await page.select_option("#language", "ar")
    await page.locator(".profile-results", has_text="فوز").wait_for()
    await both_sizes(page, "profile-ar")
    await page.select_option("#language", "en")

    await page.click("#profile-all-games")
    await page.locator(".my-games h2", has_text=pia.name).wait_for()
    # An opponent's name in a player's games opens that opponent's profile.
    await page.locator("table.games-list button.profile-link", has_text="Rival0").click()
    await page.locator("#profile-name", has_text="Rival0").wait_for()
    rival = page.locator(".profile-game[data-game='1'] .profile-results")
    assert await rival.inner_text() == "Won 0 · lost 1 · void 0"
    await page.context.close()


async def test_a_guest_has_no_profile(arena: Arena) -> None:
    guest = Player(PlayerId(f"g_{uuid.uuid4().hex[:8]}"), "Gus", guest=True)
    other = Player(PlayerId(f"a_{uuid.uuid4().hex[:8]}"), "Ola")
    connection = await nats.connect(arena.nats_url)
    try:
        match = MatchId(f"profile-{uuid.uuid4().hex}")
        await publish(connection.jetstream(), Voided(match, SPIT, (guest, other), "aborted", ""))
    finally:
        await connection.close()
    page = await new_page(arena.browser, arena.url)
    await sign_in(page, "Gia")
    note = page.locator(".profile-note", has_text=english("profile.guest"))
    for _ in range(100):  # the result reaches the ratings service in its own time
        await page.goto(f"{arena.url}/#profile/{guest.player_id}/Gus")
        await page.locator(".profile-note").wait_for()
        if await note.count():
            break
        await page.wait_for_timeout(200)
    assert await note.count() == 1
    assert await page.locator("#profile-name").inner_text() == "Gus (guest)"
    await page.context.close()


async def test_a_finished_matchs_heading_links_each_account_to_its_profile(arena: Arena) -> None:
    """In play the heading's names are words (a link would take the player away); once
    the match is over, an account's name opens its profile."""
    page = await new_page(arena.browser, arena.url)
    await sign_in(page, "Hana")
    await page.click("#spit-computer")
    await page.wait_for_selector(".spit-table")
    assert await page.locator(".match-head h2 button.profile-link").count() == 0
    await resign(page)
    await page.wait_for_selector(".end-panel h3")
    computer = page.locator(".match-head h2 button.profile-link")
    assert await computer.count() == 1  # the computer's account; Hana is a guest
    await computer.click()
    await page.locator("#profile-name", has_text="Computer").wait_for()
    await page.locator(".profile-game[data-game='1']").wait_for()
    await page.context.close()
