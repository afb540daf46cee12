"""Every name the page shows marks a guest "(guest)", in words, and shows a deleted account
as "deleted player", with no link to its games: a match's heading and table, the ladder,
My games and a tournament's standings; each screen photographed on a desktop and a phone."""

from __future__ import annotations

import time
import uuid

import aiohttp
import nats
import pytest
from playwright.async_api import Page

from clients.arena import ArenaClient, unique_username
from games.registry import SPIT
from photofinish.game.v1 import game_pb2, spit_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from services.ratings.model import Finished, MatchId, Mode, Player, PlayerId
from tests.ratings.results import publish
from tests.web.browser import DESKTOP, PASSWORD, PHONE, new_page, sign_in, sign_up_new
from tests.web.conftest import Arena
from tests.web.test_accounts import ben_plays_a_card, checked

pytestmark = pytest.mark.asyncio(loop_scope="module")

HOUR_MS = 3_600_000
DELETION_WAIT_MS = 30_000  # the deletion travels: accounts → its stream → ratings, tournaments
LONG_GUEST = "Gustavo_Longname_24chars"  # as long as a guest's name may be
OVERFLOW = "s => { const e = document.querySelector(s); return e.scrollWidth - e.clientWidth; }"
RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))


async def both_sizes(page: Page, name: str) -> None:
    """Photograph and check (axe, no sideways scroll; 44 px targets) the screen on a
    desktop and on a phone, leaving the page desktop-sized."""
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        await page.set_viewport_size(size)
        await checked(page, f"{name}-{label}")
    await page.set_viewport_size(DESKTOP)


async def test_a_guests_casual_match_heading_shows_the_guest_mark_to_the_opponent(
    arena: Arena,
) -> None:
    page = await new_page(arena.browser, arena.url)
    ann = await sign_up_new(page, "Ann")
    await page.uncheck("#spit-rated")  # a guest plays casual
    await page.click("#spit-challenge")
    code = await page.inner_text("#challenge-code")
    async with aiohttp.ClientSession() as http:
        gus = ArenaClient(http, arena.url)
        await gus.sign_in("Gus")
        await gus.accept_challenge(code)
        heading = page.locator(".match-head h2")
        await heading.locator(".guest-mark").wait_for()
        assert sorted((await heading.inner_text()).split(" vs ")) == sorted([ann, "Gus (guest)"])
        assert await heading.locator(".guest-mark").count() == 1  # Ann is an account
        await page.wait_for_selector(".spit-table")
        assert "Gus (guest)" in await page.inner_text(".spit-table")
        await both_sizes(page, "names-guest-heading")
    await page.context.close()


async def rated_before_accounts(arena: Arena, guest: str, account: str) -> None:
    """Publish a rated Spit win of a guest over an account, as the arbitration did before
    rated play needed an account (no game makes a guest's ladder row now)."""
    players = (
        Player(PlayerId(f"g_{uuid.uuid4().hex[:8]}"), guest, guest=True),
        Player(PlayerId(f"a_{uuid.uuid4().hex[:8]}"), account),
    )
    result = Finished(MatchId(f"before-{uuid.uuid4().hex}"), SPIT, players, 0, True, Mode.ONLINE)
    connection = await nats.connect(arena.nats_url)
    try:
        await publish(connection.jetstream(), result)
    finally:
        await connection.close()


async def test_the_ladder_marks_a_guest_rated_before_accounts(arena: Arena) -> None:
    await rated_before_accounts(arena, LONG_GUEST, "Ada")
    page = await new_page(arena.browser, arena.url)
    await sign_in(page, "Lena")
    rows = page.locator("table.ladder[data-game='1'] tbody tr")
    guest = rows.filter(has_text=LONG_GUEST)
    await guest.wait_for()
    assert await guest.locator("button.player-games").inner_text() == f"{LONG_GUEST} (guest)"
    assert await guest.locator(".guest-mark").inner_text() == " (guest)"
    assert "(guest)" not in await rows.filter(has_text="Ada").inner_text()
    await page.set_viewport_size(PHONE)  # the longest name breaks: the table keeps to its panel
    assert await page.evaluate(OVERFLOW, ".ladder-section") <= 0
    await both_sizes(page, "names-ladder")
    await guest.locator("button.player-games").click()
    await page.locator(".my-games h2").filter(has_text=f"{LONG_GUEST}'s games").wait_for()
    await page.context.close()


async def rated_win_then_deleted(arena: Arena, page: Page, http: aiohttp.ClientSession) -> str:
    """The page's account beats Ben (an account, through the API) in a rated Spit match;
    then Ben deletes his account. Return Ben's player id."""
    await page.click("#spit-challenge")
    code = await page.inner_text("#challenge-code")
    ben = ArenaClient(http, arena.url)
    await ben.sign_up(unique_username("Ben"), PASSWORD, "a test")
    assignment = await ben.accept_challenge(code)
    await page.wait_for_selector(".spit-table")
    seat = assignment.seats[0]
    await ben_plays_a_card(ben, assignment.match_id, seat, page)  # a resignation then counts
    await ben.submit(assignment.match_id, seat, RESIGN)
    await page.locator(".end-panel .rating-change", has_text="Rating: ").wait_for()
    await page.click("#leave")
    await ben.delete_account(PASSWORD)
    return ben.player_id


async def test_a_deleted_opponent_is_a_deleted_player_on_the_ladder_and_in_my_games(
    arena: Arena,
) -> None:
    page = await new_page(arena.browser, arena.url)
    await sign_up_new(page, "Cora")
    async with aiohttp.ClientSession() as http:
        ben = await rated_win_then_deleted(arena, page, http)
    row = page.locator("table.ladder[data-game='1'] tbody tr").filter(has_text=f"#{ben[-4:]}")
    gone = page.locator("table.ladder[data-game='1'] tbody tr .deleted-player")
    await gone.wait_for(timeout=DELETION_WAIT_MS)
    assert await row.count() == 0  # no tag, no name, no link
    await both_sizes(page, "names-ladder-deleted")
    await page.click("#my-games")
    opponent = page.locator("table.games-list tbody tr td").nth(2)
    await opponent.locator(".deleted-player").wait_for()
    assert (await opponent.inner_text()).strip() == "deleted player"
    await both_sizes(page, "names-my-games-deleted")
    await page.context.close()


def upcoming(name: str) -> tournaments_pb2.CreateTournamentRequest:
    starts = int(time.time() * 1000) + HOUR_MS  # nobody paired: the standings stay put
    return tournaments_pb2.CreateTournamentRequest(
        name=name, game=game_pb2.GAME_SPIT, starts_at_unix_ms=starts, duration_s=600
    )


async def test_standings_mark_guests_and_show_a_deleted_account_as_deleted_player(
    arena: Arena,
) -> None:
    page = await new_page(arena.browser, arena.url)
    await sign_in(page, "Gwen")
    async with aiohttp.ClientSession() as http:
        host = ArenaClient(http, arena.url)
        await host.sign_up_new("Hal")
        tournament = await host.create_tournament(upcoming("Names Cup"))
        await host.join_tournament(tournament.tournament_id)
        dora = ArenaClient(http, arena.url)
        await dora.sign_up(unique_username("Dora"), PASSWORD, "a test")
        await dora.join_tournament(tournament.tournament_id)
        entry = page.locator(f"[data-tournament='{tournament.tournament_id}']")
        await entry.locator("button.join").click()
        table = page.locator(".standings-table")
        await table.locator("tbody tr").nth(2).wait_for()
        mine = table.locator("tr.me td").nth(1)
        assert (await mine.inner_text()).startswith("Gwen (guest)")
        assert await mine.locator(".guest-mark").count() == 1
        assert "(guest)" not in await table.locator("tbody tr", has_text=host.name).inner_text()
        await dora.delete_account(PASSWORD)
        await table.locator(".deleted-player").wait_for(timeout=DELETION_WAIT_MS)
        assert await table.locator("tbody tr", has_text=dora.name).count() == 0
        await both_sizes(page, "names-standings")
    await page.context.close()
