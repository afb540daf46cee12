"""Fair play in a browser: a player reports the opponent at the end of a rated match; an
operator (granted with tools.operators) opens the fair-play queue from the lobby, reads the
case (the reaction histogram against everyone's, the measured games), opens a game's
replay where each play shows its reaction, and marks the account, saying why; the marked
account's profile says so. A player finds no way to the queue, and is refused at its
address. Photographed and checked with axe on a desktop and a phone."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import aiohttp
import pytest
from playwright.async_api import Page

from clients.arena import ArenaClient, unique_username
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from tests.e2e.support import Seated, challenge, ended, seat_bot
from tests.web.browser import PASSWORD, english, new_page, sign_in_account, sign_up_new
from tests.web.conftest import Arena
from tests.web.test_names import both_sizes

pytestmark = pytest.mark.asyncio(loop_scope="module")

SPIT = game_pb2.GAME_SPIT
MATCH_TIMEOUT_S = 300.0
STEPS_LOOKED_AT = 200  # a play with a reaction comes within the first few dozen steps


def grant_operator(arena: Arena, username: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "tools.operators", "grant", username],
        env={**os.environ, "PF_DATA_DIR": str(arena.data_dir), "DATABASE_URL": ""},
        check=True,
        capture_output=True,
    )


async def report_at_the_end(page: Page, speedy: ArenaClient, steady: ArenaClient) -> str:
    """Speedy challenges (rated Spit); the page accepts, and the match is played through
    the API (Speedy at a program's pace, the page's player at a person's, from another of
    their devices) while the page shows it; at the end the page reports Speedy. Return the
    match's id."""
    stream = speedy.create_challenge(SPIT, True)
    code = (await anext(stream)).code
    await page.fill("#spit-code", code)
    await page.click("#spit-accept")
    created = (await anext(stream)).match
    await stream.aclose()
    seats = (created.seats[0], 1 - created.seats[0])
    ends = await asyncio.wait_for(
        asyncio.gather(
            seat_bot(Seated(speedy, created.match_id, seats[0]), SPIT, 0.2).play(),
            seat_bot(Seated(steady, created.match_id, seats[1]), SPIT, 1.2).play(),
        ),
        MATCH_TIMEOUT_S,
    )
    assert all(end.status == arbitration_pb2.STATUS_FINISHED for end in ends), ended(ends)
    await page.click("#report summary")
    await page.check("input[name=report-reason][value='2']")  # a program plays for them
    await page.click("#report-send")
    await page.locator("#report-status", has_text=english("report.sent")).wait_for()
    await both_sizes(page, "fairplay-report")
    for code, word in (("ar", "أرسل البلاغ"), ("ko", "신고 보내기")):
        await page.select_option("#language", code)
        await page.locator("#report-send", has_text=word).wait_for()
        await both_sizes(page, f"fairplay-report-{code}")
    await page.select_option("#language", "en")
    return created.match_id


async def test_a_report_reaches_the_operator_who_marks_the_account(arena: Arena) -> None:
    steady_page = await new_page(arena.browser, arena.url)
    steady_name = await sign_up_new(steady_page, "Steady")
    async with aiohttp.ClientSession() as http:
        speedy = ArenaClient(http, arena.url)
        await speedy.sign_up(unique_username("Speedy"), PASSWORD, "a test")
        steady = ArenaClient(http, arena.url)
        await steady.sign_in_account(steady_name, PASSWORD, "a test")
        # One rated game played through the API: fast against person-paced, measured.
        fast_seat, person_seat = await challenge(speedy, steady, SPIT, rated=True)
        ends = await asyncio.wait_for(
            asyncio.gather(
                seat_bot(fast_seat, SPIT, 0.2).play(), seat_bot(person_seat, SPIT, 1.2).play()
            ),
            MATCH_TIMEOUT_S,
        )
        assert all(end.status == arbitration_pb2.STATUS_FINISHED for end in ends), ended(ends)
        await report_at_the_end(steady_page, speedy, steady)

        olga = unique_username("Olga")
        await ArenaClient(http, arena.url).sign_up(olga, PASSWORD, "a test")
    grant_operator(arena, olga)

    # The player has no way to the queue, and its address refuses them.
    await steady_page.click("#leave")
    await steady_page.wait_for_selector(".lobby")
    assert await steady_page.locator("#fair-play").count() == 0
    await steady_page.goto(f"{arena.url}/#fair-play")
    refused = steady_page.locator("#fairplay-refused")
    await refused.wait_for()
    assert english("reason.operators_only") in await refused.inner_text()

    page = await new_page(arena.browser, arena.url)
    await sign_in_account(page, olga)
    await page.click("#fair-play")
    flag = page.locator(f".fairplay-flag[data-player='{speedy.player_id}']")
    await flag.wait_for()
    await both_sizes(page, "fairplay-queue")
    await flag.click()
    await page.locator("#fairplay-chart canvas").first.wait_for()
    games = page.locator("#fairplay-games li")
    await games.nth(1).wait_for()
    assert await games.count() == 2  # the game played through the API, and the page's
    await both_sizes(page, "fairplay-case")
    # In Arabic (right to left) and Korean: every word from the catalogs, nothing cut.
    for code, word in (("ar", "طابور اللعب النزيه"), ("ko", "페어플레이 대기열")):
        await page.select_option("#language", code)
        await page.locator(".fairplay h2", has_text=word).wait_for()
        await both_sizes(page, f"fairplay-case-{code}")
    await page.select_option("#language", "en")

    # The played game's replay, where a play shows its reaction.
    await page.locator(f"#fairplay-games li[data-match='{fast_seat.match_id}'] button").click()
    await page.wait_for_selector("#replay-slider")
    reaction = page.locator("#replay-reaction")
    for _ in range(STEPS_LOOKED_AT):
        if await reaction.count():
            break
        await page.click("#replay-next")
    assert "ms" in await reaction.inner_text()
    await both_sizes(page, "fairplay-replay")
    assert await page.inner_text("#replay-back") == english("replay.back_to_queue")
    await page.click("#replay-back")

    await page.locator(f".fairplay-flag[data-player='{speedy.player_id}']").click()
    await page.click("#fairplay-mark")  # without a reason: asked for one
    await page.click("#fairplay-mark-confirm")
    await page.locator("#fairplay-status", has_text=english("fairplay.say_why")).wait_for()
    await page.fill("#fairplay-why", "answers at about 80 ms, a program's pace")
    await page.click("#fairplay-mark-confirm")
    status = page.locator("#fairplay-status")
    await status.wait_for()
    await page.wait_for_function(
        "() => document.querySelector('#fairplay-clear')?.disabled === true"
    )
    assert "The account is marked" in await status.inner_text()
    await both_sizes(page, "fairplay-marked")
    await page.click("#fairplay-queue-back")
    await page.locator("#fairplay-empty").wait_for()

    # The marked account's profile says so; its figures are there for all to read.
    await page.goto(f"{arena.url}/#profile/{speedy.player_id}/{speedy.name}")
    await page.locator("#profile-barred").wait_for()
    await page.locator(".profile-game[data-game='1'] .profile-reaction").wait_for()
    await both_sizes(page, "fairplay-profile-barred")
