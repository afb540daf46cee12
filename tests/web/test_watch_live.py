"""Watching live in Chromium: the list of matches in play, the spectator page, the count.

Two players on the public API play Spectacular Bid; two spectators (a desktop and a
phone) find the match in the lobby's live list and watch it. Every update their pages
receive, and the page itself at every step, is checked against both players' hands at
that step: no tile of a hand ever reaches a spectator. A tournament page links to its
live game, which a third spectator watches (Spit).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Locator, Page

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from photofinish.tournaments.v1 import tournaments_pb2
from tests.e2e.support import UPDATE_TIMEOUT_S, Seated, challenge
from tests.waiting import poll_until
from tests.web.axe import assert_accessible
from tests.web.browser import new_page, screenshot, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")

LIVE = arbitration_pb2.STATUS_LIVE
PLAYS_WATCHED = 6
THINK_S = 0.4  # between a player's moves: the spectators see each one arrive
BID_RESIGN = game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign()))
SPIT_RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))

# (seq, the tile keys "low|high" on the page); read in one go, so the two agree.
PAGE_TILES = """() => {
    const last = window.__pf.last();
    const keys = [...document.querySelectorAll('[data-tile], .hand-tile')]
        .map(e => e.dataset.tile || e.textContent);
    return { seq: last && last.update ? last.update.seq.toString() : null, keys };
}"""
SPECTATED = """() => JSON.parse(JSON.stringify(window.__pf.spectated(),
    (k, v) => typeof v === 'bigint' ? v.toString() : v))"""


class Hands:
    """Both players' hands at each step, as each player's own updates show them."""

    def __init__(self) -> None:
        self._by_seat: dict[int, dict[int, frozenset[str]]] = {0: {}, 1: {}}

    def note(self, update: arbitration_pb2.MatchUpdate) -> None:
        keys = frozenset(tile_key(t.low, t.high) for t in update.view.bid.hand)
        self._by_seat[update.seat][update.seq] = keys

    def reached(self, seq: int) -> bool:
        """Return whether both players' own updates have come as far as step ``seq``."""
        return all(steps and max(steps) >= seq for steps in self._by_seat.values())

    def at(self, seq: int) -> frozenset[str]:
        """Return every tile in either hand at step ``seq``."""
        held: set[str] = set()
        for steps in self._by_seat.values():
            known = [s for s in steps if s <= seq]
            if known:
                held |= steps[max(known)]
        return frozenset(held)


def tile_key(a: int, b: int) -> str:
    return f"{min(a, b)}|{max(a, b)}"


def tiles_in(data: Any) -> Iterator[str]:
    """Yield the key of every tile anywhere in a plain update."""
    if isinstance(data, dict):
        if "low" in data and "high" in data:
            yield tile_key(int(data["low"]), int(data["high"]))
        for value in data.values():
            yield from tiles_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from tiles_in(value)


async def play(seated: Seated, hands: Hands, plays: list[int], go: asyncio.Event) -> None:
    """Play the seat's first legal command at each of its decisions, ``PLAYS_WATCHED``
    plays in all (no round ends: a new deal may give a hand a tile the last one showed)."""
    async for update in seated.client.watch(seated.match_id, seated.seat):
        hands.note(update)
        view = update.view.bid
        if update.status != LIVE:
            return
        if seated.seat in view.decide and view.legal and len(plays) < PLAYS_WATCHED:
            await go.wait()
            await asyncio.sleep(THINK_S)
            command = game_pb2.Command(bid=view.legal[0])
            with contextlib.suppress(CallError):  # the next update tells what happened
                await seated.submit(command)
            if view.legal[0].WhichOneof("kind") == "play":
                plays.append(update.seq)


@contextlib.asynccontextmanager
async def playing(
    arena: Arena,
) -> AsyncIterator[tuple[Seated, Hands, list[int], asyncio.Event]]:
    """Two API players in a casual Bid match, who play once ``go`` is set, until the block
    ends (then a resign)."""
    async with aiohttp.ClientSession() as http:
        ann, ben = ArenaClient(http, arena.url), ArenaClient(http, arena.url)
        await ann.sign_in("Ann")
        await ben.sign_in("Ben")
        a, b = await challenge(ann, ben, game_pb2.GAME_BID, rated=False)
        hands, plays, go = Hands(), list[int](), asyncio.Event()
        players = [asyncio.create_task(play(s, hands, plays, go)) for s in (a, b)]
        try:
            yield a, hands, plays, go
        finally:
            with contextlib.suppress(CallError):
                await a.submit(BID_RESIGN)
            # Each player's stream ends with the match's last update, which the checks after
            # need in ``hands``: let the players see it rather than cancel them first.
            await asyncio.wait(players, timeout=UPDATE_TIMEOUT_S)
            for task in players:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, CallError):
                    await task


async def watch_from_the_list(page: Page, match_id: str) -> None:
    await page.click("#watch-live")
    row = page.locator(f'li.live-match[data-match="{match_id}"]')
    await row.wait_for()
    await row.locator("button.watch").click()
    await page.wait_for_selector(".spectate .board-host .bid-table")


async def check_page(page: Page, hands: Hands) -> int:
    """Check the page holds no tile of a hand at the step it shows; return that step."""
    shown = await page.evaluate(PAGE_TILES)
    seq = int(shown["seq"])
    # The page may be ahead of the players' own streams: a tile played at this step is in
    # the hand that the last step the test knows of shows, but not in the hand at this one.
    await poll_until(f"the players' updates reach step {seq}", lambda: hands.reached(seq))
    leaked = set(shown["keys"]) & hands.at(seq)
    assert not leaked, f"the spectator page shows {leaked} of a hand at step {seq}"
    assert await page.locator(".hand-tile, #ready, #resign, #draw, .bid-form").count() == 0
    assert await page.locator(".board-host button:enabled").count() == 0
    return seq


def check_updates(updates: list[dict[str, Any]], hands: Hands) -> None:
    """Every update a spectator page received: the public view only."""
    for update in updates:
        seq = int(update["seq"])
        assert update["seat"] == -1
        view = update["view"]["kind"]["value"]
        assert not view.get("hand") and not view.get("legal"), f"step {seq}: a hand"
        assert "mustPlay" not in view and "mustOpenWith" not in view
        leaked = set(tiles_in(update)) & hands.at(seq)
        assert not leaked, f"step {seq}: the spectators received {leaked} of a hand"


async def test_two_spectators_watch_a_live_match_and_never_see_a_hand(arena: Arena) -> None:
    eve = await new_page(arena.browser, arena.url)
    fay = await new_page(arena.browser, arena.url, phone=True)
    await sign_in(eve, "Eve")
    await sign_in(fay, "Fay")
    await screenshot(fay, "lobby-watch-live-phone")
    async with playing(arena) as (seated, hands, plays, go):
        await eve.click("#watch-live")
        await eve.locator(f'li.live-match[data-match="{seated.match_id}"]').wait_for()
        await screenshot(eve, "live-list-desktop")
        await assert_accessible(eve)
        await eve.click("#live-back")
        for page in (eve, fay):
            await watch_from_the_list(page, seated.match_id)
        for page in (eve, fay):
            await page.wait_for_function(
                "() => document.querySelector('#watchers')?.textContent === '2 watching'"
            )
        go.set()
        steps: set[int] = set()
        while len(plays) < PLAYS_WATCHED:
            for page in (eve, fay):
                steps.add(await check_page(page, hands))
            await asyncio.sleep(0.1)
        await screenshot(eve, "spectator-bid-desktop")
        await screenshot(fay, "spectator-bid-phone")
        for page in (eve, fay):
            await assert_accessible(page)
        assert len(steps) >= PLAYS_WATCHED // 2, "the moves did not arrive on the pages"
    for page in (eve, fay):
        await page.wait_for_selector(".spectate .end-panel")
        await check_page(page, hands)
        check_updates(await page.evaluate(SPECTATED), hands)
    assert "won: by resignation" in await eve.inner_text(".end-panel")
    await screenshot(fay, "spectator-end-phone")
    await eve.click("#leave")
    await eve.locator(".live-game").first.wait_for()
    gone = eve.locator(f'li.live-match[data-match="{seated.match_id}"]')
    await poll_until("the match leaves the list", lambda: _none(gone))


async def test_a_tournament_page_links_to_its_live_game(arena: Arena) -> None:
    async with aiohttp.ClientSession() as http:
        cat, dan = ArenaClient(http, arena.url), ArenaClient(http, arena.url)
        await cat.sign_in("Cat")
        await dan.sign_in("Dan")
        request = tournaments_pb2.CreateTournamentRequest(
            name="Lunch Spit", game=game_pb2.GAME_SPIT, rated=False, duration_s=600
        )
        tournament = await cat.create_tournament(request)
        for entrant in (cat, dan):
            await entrant.join_tournament(tournament.tournament_id)

        async def first_game() -> tournaments_pb2.TournamentGame | None:
            record = await cat.get_tournament(tournament.tournament_id)
            return record.games[0] if record.games else None

        game = await poll_until("Cat and Dan paired", first_game)
        gus = await new_page(arena.browser, arena.url, phone=True)
        await sign_in(gus, "Gus")
        await gus.click(f'[data-tournament="{tournament.tournament_id}"] button.standings')
        live = gus.locator(f'#tournament-live li[data-match="{game.match_id}"]')
        await live.wait_for()
        await screenshot(gus, "tournament-live-games-phone")
        await live.locator("button.watch").click()
        await gus.wait_for_selector(".spectate .board-host .spit-table")
        await gus.wait_for_function(
            "() => document.querySelector('#watchers')?.textContent === '1 watching'"
        )
        assert await gus.locator(".board-host button:enabled").count() == 0
        assert await gus.locator("#ready, #spit, #resign, #pause").count() == 0
        assert "(you)" not in await gus.inner_text(".board-host")
        await screenshot(gus, "spectator-spit-phone")
        await assert_accessible(gus)
        seat = list(game.player_ids).index(cat.player_id)
        await cat.submit(game.match_id, seat, SPIT_RESIGN)
        await gus.wait_for_selector(".spectate .end-panel")
        await gus.click("#spectate-back")
        await gus.wait_for_selector(".tournament-page")


async def _none(locator: Locator) -> bool:
    return await locator.count() == 0
