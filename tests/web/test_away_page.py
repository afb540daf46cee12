"""A Spit opponent who leaves, seen from the page: the present player aborts a rated match
the other never moved in (both ratings unchanged), or claims the win once they moved; a
return clears the offer. Short limits keep it quick (away after 3 s unheard). Rated play is
for accounts: Ann signs up in the page, Ben through the API."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio
from playwright.async_api import Page

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2, spit_pb2
from services.stack.stack import StackConfig, run_stack
from tests.web.browser import chromium, click_if_shown, new_page, screenshot, sign_up_new
from tests.web.conftest import Arena
from tests.web.test_spit import take_next_move

pytestmark = pytest.mark.asyncio(loop_scope="module")

ENV = (("PF_AWAY_S", "3"), ("PF_PRESENCE_EVERY_S", "0.5"), ("PF_GATE_TIMEOUT_S", "600"))
READY = game_pb2.Command(spit=spit_pb2.SpitCommand(ready=spit_pb2.SpitReady()))
SPIT = game_pb2.Command(spit=spit_pb2.SpitCommand(spit=spit_pb2.SpitSpit()))
AWAY_WAIT_MS = 20_000
LOOK_AGAIN_S = 2.0  # no update after a step this long: the step is taken again


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def quick_away(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Arena]:
    config = StackConfig(Path(tmp_path_factory.mktemp("stack")), with_bots=False, extra_env=ENV)
    async with run_stack(config) as stack, chromium() as browser:
        yield Arena(stack.gateway_url, browser)


async def challenged(
    arena: Arena, http: aiohttp.ClientSession, phone: bool = False
) -> tuple[Page, ArenaClient, str, int]:
    """Ann challenges from the page (rated Spit); Ben accepts from here and is never on a
    page: a seat with no stream and no command."""
    page = await new_page(arena.browser, arena.url, phone=phone)
    await sign_up_new(page, "Ann")
    await page.click("#spit-challenge")
    code = await page.inner_text("#challenge-code")
    ben = ArenaClient(http, arena.url)
    await ben.sign_up_new("Ben")
    assignment = await ben.accept_challenge(code)
    await page.wait_for_selector(".spit-table")
    return page, ben, assignment.match_id, assignment.seats[0]


async def player_id(page: Page) -> str:
    found: str = await page.evaluate(
        "() => JSON.parse(localStorage.getItem('pf.session')).playerId"
    )
    return found


def a_play(update: arbitration_pb2.MatchUpdate, seat: int) -> game_pb2.Command | None:
    """A play of one of ``seat``'s stock tops onto a centre pile it fits, naming the top."""
    view = update.view.spit
    for stock, pile in enumerate(view.sides[seat].stock):
        if not pile.HasField("top"):
            continue
        for target, centre in enumerate(view.centre):
            if centre.HasField("top") and abs(pile.top.rank - centre.top.rank) in (1, 12):
                play = spit_pb2.SpitPlay(stock=stock, pile=target, onto=centre.top.rank)
                return game_pb2.Command(spit=spit_pb2.SpitCommand(play=play))
    return None


def table(update: arbitration_pb2.MatchUpdate) -> str:
    """The table as a failure should show it: the gate, each side's stock, the centre."""
    view = update.view.spit
    sides = [
        [f"{p.top.rank}+{p.hidden}" if p.HasField("top") else "_" for p in side.stock]
        for side in view.sides
    ]
    centre = [str(c.top.rank) if c.HasField("top") else "_" for c in view.centre]
    return f"seq {update.seq}, gate {update.decision.gate}, stocks {sides}, centre {centre}"


async def ben_moves(
    page: Page,
    ben: ArenaClient,
    watching: AsyncIterator[arbitration_pb2.MatchUpdate],
    update: arbitration_pb2.MatchUpdate,
    seat: int,
) -> None:
    """Ben plays a card once he has one that fits; until then Ann plays hers from the page
    (a stock card, then a centre pile) or uncovers one (a move into an empty space: while
    she can, nobody is blocked and no spit comes), and when nobody can go on Ben spits. At
    the start's gate, Ann's Ready is pressed again if the page still offers it.

    A step that brings Ben no update within ``LOOK_AGAIN_S`` is taken again from the table
    as it is then (Ann's page may have been a step behind Ben's, or her click missed); the
    test fails when nothing at all moves for ``AWAY_WAIT_MS``. Ben's stream is read by a
    task of its own, so that a wait given up does not close it; it ends with this function.
    """
    updates: asyncio.Queue[arbitration_pb2.MatchUpdate] = asyncio.Queue()

    async def pump() -> None:
        async for came in watching:
            updates.put_nowait(came)

    pumping = asyncio.create_task(pump())
    loop = asyncio.get_running_loop()
    still_since = loop.time()
    try:
        while True:
            if update.decision.gate == game_pb2.GATE_SPIT:  # blocked: Ben spits (a gate command)
                with contextlib.suppress(CallError):  # not_blocked: the spit came already
                    await ben.submit(update.match_id, seat, SPIT)
            elif not update.decision.gate:
                if (play := a_play(update, seat)) is not None:
                    await ben.submit(update.match_id, seat, play)
                    return
                await take_next_move(page)
            else:  # the start's gate: Ben has pressed; Ann's press may not have gone yet
                await click_if_shown(page, "#ready")
            try:
                update = await asyncio.wait_for(updates.get(), LOOK_AGAIN_S)
                still_since = loop.time()
            except TimeoutError:
                if loop.time() - still_since > AWAY_WAIT_MS / 1000:
                    pytest.fail(f"nothing moved in {AWAY_WAIT_MS} ms; Ben's table: {table(update)}")
    finally:
        pumping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pumping


async def test_a_rated_match_the_opponent_never_moved_in_is_aborted_unrated(
    quick_away: Arena,
) -> None:
    async with aiohttp.ClientSession() as http:
        page, ben, _, _ = await challenged(quick_away, http)
        claim = page.locator("#claim")
        await claim.wait_for(timeout=AWAY_WAIT_MS)
        assert await claim.inner_text() == "Abort the match (no rating)"
        assert f"{ben.name} left before making a move" in await page.inner_text(".notices")
        await screenshot(page, "away-abort-offer")
        await claim.click()
        await page.wait_for_selector(".end-panel")
        assert await page.inner_text(".end-panel h3") == "Match void"
        assert not await page.is_visible("#resign")  # a match that is over takes no command
        reason = await page.inner_text(".void-reason")
        assert reason == "Reason: a player resigned or left before their first move"
        await page.locator(".rating-change").filter(has_text="void").wait_for()
        assert await page.inner_text(".rating-change") == (
            "No rating change (void: a player resigned or left before their first move)."
        )
        await screenshot(page, "away-aborted")
        for who in (await player_id(page), ben.player_id):
            rating = await ben.get_rating(who, game_pb2.GAME_SPIT)
            assert (rating.games, rating.rating) == (0, 1500.0)
        await page.context.close()


async def test_an_opponent_who_moved_and_left_is_claimed_against_and_a_return_clears_it(
    quick_away: Arena,
) -> None:
    async with aiohttp.ClientSession() as http:
        page, ben, match_id, seat = await challenged(quick_away, http, phone=True)
        await page.click("#ready")
        watching = ben.watch(match_id, seat)
        update = await anext(watching)
        await ben.submit(match_id, seat, READY)
        await ben_moves(page, ben, watching, update, seat)  # a claim now wins, not aborts
        await watching.aclose()  # Ben leaves
        claim = page.locator("#claim")
        await claim.wait_for(timeout=AWAY_WAIT_MS)
        assert await claim.inner_text() == "Claim the win"
        # Ben comes back: the offer goes, and play goes on.
        back = ben.watch(match_id, seat)
        await anext(back)
        await claim.wait_for(state="detached", timeout=AWAY_WAIT_MS)
        assert f"{ben.name} is back." in await page.inner_text(".notices")
        await back.aclose()  # and leaves again
        await claim.wait_for(timeout=AWAY_WAIT_MS)
        await screenshot(page, "away-claim-offer-phone")
        await claim.click()
        await page.wait_for_selector(".end-panel")
        assert await page.inner_text(".end-panel h3") == "You won"
        ann = await page.evaluate("() => window.__pf.me().name")
        assert await page.inner_text(".outcome") == f"{ann} won: the opponent left."
        await page.locator(".rating-change").filter(has_text="Rating:").wait_for()
        await screenshot(page, "away-claimed-phone")
        await page.context.close()
