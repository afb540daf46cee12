"""The Spit page's notices: they never move the table, a lost race reads as a player says it
(once, with the server's exact stamps one click away) and a plain refusal is not told as a
race. Ann plays in the page; Ben, her opponent by challenge code, plays from here."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Page, Route, WebSocketRoute
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from clients.arena import ArenaClient
from clients.grpcweb import CallError
from photofinish.client.v1 import play_pb2
from photofinish.game.v1 import game_pb2, spit_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from tests.web.axe import assert_accessible
from tests.web.browser import PHONE, click_if_shown, last_update, new_page, screenshot, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")

GATE_NONE, GATE_START, GATE_CONTINUE = 0, 1, 2
STEP_LIMIT = 200
ATTEMPTS = 10
RACE = ".notices .notice.race"
NEWEST = ".notices .notice-line:first-child"  # the line shown; older ones lie beneath it
STAMPS = f"{NEWEST} .stamps summary"
HOT_SEAT_SEQ = 1_000_000
GRPC_WEB_PREFIX = 5  # a gRPC-web data frame's flags and length, before the message


class HeldUpdates:
    """Between the page's play socket and the gateway: while ``holding``, the updates the
    server sends wait here, so the page's table is stale; answers pass at once. The next
    ``dropping`` updates are lost on the way instead (as a gateway's NATS link can lose
    them). ``sockets`` counts the sockets the page opened."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[bytes] = []
        self.dropping = 0
        self.sockets = 0
        self.to_page: WebSocketRoute | None = None

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.to_page = ws
        self.sockets += 1
        server.on_message(lambda frame: self._from_server(ws, frame))

    def _from_server(self, ws: WebSocketRoute, frame: bytes | str) -> None:
        assert isinstance(frame, bytes)
        is_update = play_pb2.PlayOut.FromString(frame).WhichOneof("kind") == "update"
        if is_update and self.dropping:
            self.dropping -= 1
        elif is_update and self.holding:
            self.held.append(frame)
        else:
            ws.send(frame)

    def release(self) -> None:
        assert self.to_page is not None
        self.holding = False
        for frame in self.held:
            self.to_page.send(frame)
        self.held.clear()


@dataclass
class Duel:
    """Ann's page and Ben's client in one Spit match."""

    page: Page
    ben: ArenaClient
    match_id: str
    ann_seat: int
    ben_seat: int
    updates: HeldUpdates
    hot_seat: bool = False  # both seats in the page (Ben's commands under Ann's token)

    async def update(self) -> dict[str, Any]:
        update = await last_update(self.page)
        assert update is not None
        return update

    async def view(self) -> dict[str, Any]:
        view: dict[str, Any] = (await self.update())["view"]["kind"]["value"]
        return view

    async def ben_sends(self, command: game_pb2.Command) -> int:
        """Send Ben's command; return the match's seq it was given."""
        # On one device, the page has numbered seat 1's commands from 1 already.
        client_seq = self.ben.next_client_seq() + (HOT_SEAT_SEQ if self.hot_seat else 0)
        reply = await self.ben.submit(self.match_id, self.ben_seat, command, client_seq)
        return reply.seq

    async def ben_plays(self, stock: int, pile: int, onto: int) -> int:
        return await self.ben_sends(spit(play=spit_pb2.SpitPlay(stock=stock, pile=pile, onto=onto)))

    async def ann_plays(self, stock: int, pile: int) -> None:
        """Click Ann's stock card, then the centre pile (the page sends the top it shows)."""
        await self.page.click(f"[data-stock='{stock}'] .card")
        await self.page.click(f"[data-pile='{pile}']")


def spit(**command: Any) -> game_pb2.Command:
    return game_pb2.Command(spit=spit_pb2.SpitCommand(**command))


def adjacent(a: int, b: int) -> bool:
    return abs(a - b) in (1, 12)


def tops(view: dict[str, Any], seat: int) -> dict[int, dict[str, Any]]:
    """The face-up stock cards of ``seat``, by stock pile."""
    stock = view["sides"][seat]["stock"]
    return {index: pile["top"] for index, pile in enumerate(stock) if pile.get("top")}


def plays(view: dict[str, Any], seat: int, fitting: bool = True) -> list[tuple[int, int]]:
    """Each (stock, pile) whose card goes onto the pile (or, not ``fitting``, does not)."""
    return [
        (index, pile)
        for index, card in tops(view, seat).items()
        for pile, centre in enumerate(view["centre"])
        if centre.get("top") and adjacent(card["rank"], centre["top"]["rank"]) is fitting
    ]


async def table_box(page: Page) -> tuple[float, float]:
    """Where the Spit table is on the page: its top (from the document's top) and height."""
    box: list[float] = await page.evaluate(
        """() => { const r = document.querySelector('.spit-table').getBoundingClientRect();
                   return [r.top + window.scrollY, r.height]; }"""
    )
    return box[0], box[1]


async def wait_for_seq(page: Page, seq: int, timeout_ms: float | None = None) -> None:
    """Wait until the page holds the update of ``seq`` or a later one."""
    await page.wait_for_function(
        "seq => BigInt(window.__pf.last()?.update?.seq ?? 0) >= BigInt(seq)",
        arg=str(seq),
        timeout=timeout_ms,
    )


@asynccontextmanager
async def duel(arena: Arena) -> AsyncIterator[Duel]:
    """A started match: Ann in the page (by challenge code), Ben from here, both Ready."""
    page = await new_page(arena.browser, arena.url)
    updates = HeldUpdates()
    await page.route_web_socket(re.compile(r"/play$"), updates.route)
    await sign_in(page, "Ann")
    await page.uncheck("#spit-rated")
    await page.click("#spit-challenge")
    code = await page.inner_text("#challenge-code")
    async with aiohttp.ClientSession() as session:
        ben = ArenaClient(session, arena.url)
        await ben.sign_in("Ben")
        assignment = await ben.accept_challenge(code)
        [ben_seat] = assignment.seats
        await page.click("#ready")
        await ben.submit(assignment.match_id, ben_seat, spit(ready=spit_pb2.SpitReady()))
        await page.wait_for_function(
            "() => window.__pf.last()?.update?.view?.kind?.value?.gate === 0"
        )
        try:
            yield Duel(page, ben, assignment.match_id, 1 - ben_seat, ben_seat, updates)
        finally:
            await page.context.close()


@asynccontextmanager
async def hot_seat(
    arena: Arena, on_page: Callable[[Page], object] = lambda _page: None
) -> AsyncIterator[Duel]:
    """A started Spit match of two on Ann's page: the lobby's hot-seat (offered for Bid)
    asked for Spit on the way; seat 0 plays in the page, seat 1 from here. ``on_page`` sees
    the page first (to record its sockets from the start, say)."""
    page = await new_page(arena.browser, arena.url)
    on_page(page)
    await page.route(re.compile(r"/PlayHotSeat$"), as_spit)
    await sign_in(page, "Ann")
    await page.click("#bid-hotseat")
    await page.click("#ready")  # for both seats
    await page.wait_for_function("() => window.__pf.last()?.update?.view?.kind?.value?.gate === 0")
    update = await last_update(page)
    assert update is not None
    async with aiohttp.ClientSession() as session:
        seat_1 = ArenaClient(session, arena.url)
        seat_1.web.token = await page.evaluate(
            "() => JSON.parse(localStorage.getItem('pf.session')).token"
        )
        try:
            yield Duel(page, seat_1, update["matchId"], 0, 1, HeldUpdates(), hot_seat=True)
        finally:
            await page.context.close()


async def as_spit(route: Route) -> None:
    """Send a PlayHotSeat request (gRPC-web, one framed message) for Spit."""
    body = route.request.post_data_buffer
    assert body is not None
    request = matchmaking_pb2.PlayHotSeatRequest.FromString(body[GRPC_WEB_PREFIX:])
    request.game = game_pb2.GAME_SPIT
    message = request.SerializeToString()
    await route.continue_(post_data=body[:1] + len(message).to_bytes(4, "big") + message)


async def until(duel: Duel, seat: int) -> dict[str, Any]:
    """Return the page's view once ``seat`` can play a card; meanwhile play on: Ben plays
    or moves (Ann when he cannot), Ready at a new round; a blocked table spits by itself."""
    for _ in range(STEP_LIMIT):
        update = await duel.update()
        view: dict[str, Any] = update["view"]["kind"]["value"]
        if view["gate"] == GATE_NONE and plays(view, seat):
            return view
        seq = await play_on(duel, view)
        try:
            await wait_for_seq(duel.page, max(seq, int(update["seq"]) + 1), timeout_ms=3000)
        except PlaywrightTimeoutError:
            continue  # nothing changed yet (a spit is due): look again
    pytest.fail(f"seat {seat} never had a card to play")


async def play_on(duel: Duel, view: dict[str, Any]) -> int:
    """Take one step of the match that is not a race (a Ready, or a play or move); return
    the seq of Ben's command, or 0."""
    ben, ann = duel.ben_seat, duel.ann_seat
    if view["gate"] in (GATE_START, GATE_CONTINUE):
        await click_if_shown(duel.page, "#ready")
        if ben in view["mustPress"] and not duel.hot_seat:
            return await duel.ben_sends(spit(ready=spit_pb2.SpitReady()))
        return 0
    if view["gate"] != GATE_NONE:
        return 0  # a spit is due: the server makes it
    if ben_plays := plays(view, ben):
        stock, pile = ben_plays[0]
        return await duel.ben_plays(stock, pile, view["centre"][pile]["top"]["rank"])
    elif ben_moves := moves(view, ben):
        move = spit_pb2.SpitMove(src=ben_moves[0][0], dst=ben_moves[0][1])
        return await duel.ben_sends(spit(move=move))
    elif ann_plays := plays(view, ann):
        await duel.ann_plays(*ann_plays[0])
    elif ann_moves := moves(view, ann):
        src, dst = ann_moves[0]
        await duel.page.click(f"[data-stock='{src}'] .card")
        await duel.page.click(f"[data-stock='{dst}'] .card")
    return 0


def moves(view: dict[str, Any], seat: int) -> list[tuple[int, int]]:
    """Each (stock, empty space) move that uncovers a face-down card."""
    stock = view["sides"][seat]["stock"]
    empty = [index for index, pile in enumerate(stock) if not pile.get("top")]
    covering = [index for index, pile in enumerate(stock) if pile.get("top") and pile["hidden"]]
    return [(index, empty[0]) for index in covering] if empty else []


def gap_ms(text: str) -> float:
    """The gap a race notice tells, in ms ("by 81 ms", "by 2.5 ms")."""
    found = re.search(r" by (\d+(?:\.\d)?) ms$", text)
    assert found, text
    return float(found.group(1))


async def the_race(page: Page) -> dict[str, Any]:
    """The race the page was last told of, by its update (both seats get one)."""
    await page.wait_for_function("() => Boolean(window.__pf.last()?.update?.race)")
    update = await last_update(page)
    assert update is not None
    race: dict[str, Any] = update["race"]
    return race


async def ann_loses_a_race(match: Duel) -> tuple[dict[str, Any], int, int]:
    """Have Ben land a card while Ann's page still shows the old top, and Ann play onto it;
    return the view she played from, her stock pile and the pile, updates still held.

    Ann's play is refused before the page hears of Ben's: it tells the race itself.
    """
    page = match.page
    for _ in range(ATTEMPTS):
        view = await until(match, match.ben_seat)
        ben_stock, pile = plays(view, match.ben_seat)[0]
        fitting = [stock for stock, p in plays(view, match.ann_seat) if p == pile]
        ann_stock = fitting[0] if fitting else next(iter(tops(view, match.ann_seat)))
        told = await page.query_selector(".notices .notice")
        match.updates.holding = True
        await match.ben_plays(ben_stock, pile, view["centre"][pile]["top"]["rank"])
        await match.ann_plays(ann_stock, pile)
        await page.wait_for_function(
            "told => { const n = document.querySelector('.notices .notice'); "
            "return n && n !== told; }",
            arg=told,
        )
        if await page.locator(f"{NEWEST} > .notice.race").count():
            return view, ann_stock, pile
        match.updates.release()  # Ben's card blocked the table: refused for the spit first
    pytest.fail("Ann never lost a race")


async def ann_wins_a_race(match: Duel) -> None:
    """Have Ann's card land, then Ben play onto the top he saw before it."""
    for _ in range(ATTEMPTS):
        view = await until(match, match.ann_seat)
        ann_stock, pile = plays(view, match.ann_seat)[0]
        seq = int((await match.update())["seq"])
        await match.ann_plays(ann_stock, pile)
        await wait_for_seq(match.page, seq + 1)
        ben_stock = next(iter(tops(view, match.ben_seat)))
        with pytest.raises(CallError) as lost:
            await match.ben_plays(ben_stock, pile, view["centre"][pile]["top"]["rank"])
        if lost.value.reason == "pile_top_changed":
            return
        assert lost.value.reason == "at_gate"  # Ann's card blocked the table or ended the round
    pytest.fail("Ann never won a race")


async def names(match: Duel) -> tuple[str, str]:
    """Ben's and Ann's names as the page shows them: a guest's marked (names.ts)."""
    players = (await match.update())["players"]

    def shown(player: dict[str, Any]) -> str:
        return f"{player['name']} (guest)" if player.get("guest") else str(player["name"])

    return shown(players[match.ben_seat]), shown(players[match.ann_seat])


async def test_a_refusal_that_is_no_race_is_worded_plainly_and_moves_nothing(
    arena: Arena,
) -> None:
    async with duel(arena) as match:
        page = match.page
        await page.set_viewport_size(PHONE)
        view = await match.view()
        misfits = plays(view, match.ann_seat, fitting=False)
        assert misfits, "every face-up card fits both piles"
        stock, pile = misfits[0]
        card = tops(view, match.ann_seat)[stock]["text"]
        top = view["centre"][pile]["top"]["text"]
        before = await table_box(page)
        await match.ann_plays(stock, pile)
        notice = page.locator(".notices .notice.refusal")
        await notice.wait_for()
        assert await notice.inner_text() == f"{card} can't go on {top} (not one rank apart)"
        assert await page.locator(RACE).count() == 0
        assert await table_box(page) == before
        await screenshot(page, "spit-refusal-phone")


async def test_a_lost_race_is_told_once_in_a_players_words_and_the_table_stays_put(
    arena: Arena,
) -> None:
    async with duel(arena) as match:
        page = match.page
        before = await table_box(page)
        view, ann_stock, pile = await ann_loses_a_race(match)
        match.updates.release()
        race = await the_race(page)
        landed, refused = race["landedCard"], race["refusedCard"]
        assert (race["landedSeat"], race["refusedSeat"]) == (match.ben_seat, match.ann_seat)
        assert refused == tops(view, match.ann_seat)[ann_stock]["text"]
        await page.wait_for_selector(f"[data-pile='{pile}'].race-landed")
        await page.wait_for_selector(f"[data-stock='{ann_stock}'] .card.race-refused")
        # The marks held at their height: the landed pile's label stays readable.
        await page.evaluate(
            "() => document.getAnimations().forEach(a => { a.pause(); a.currentTime = 0; })"
        )
        await assert_accessible(page, ".spit-table")
        await screenshot(page, "spit-race-marks")
        await page.evaluate("() => document.getAnimations().forEach(a => a.play())")
        text = await page.locator(f"{NEWEST} > .notice.race").inner_text()
        assert text.startswith(f"{landed} beat your {refused} to centre pile {pile + 1} by ")
        assert abs(gap_ms(text) - int(race["gapUs"]) / 1000) <= 0.5
        # Told once, though the refusal and the race update both told it.
        assert await page.locator(".notices .notice", has_text=refused).count() == 1
        assert await table_box(page) == before
        await screenshot(page, "spit-race-lost-desktop")

        await page.click(STAMPS)
        ben, ann = await names(match)
        assert await page.locator(f"{STAMPS} + p").inner_text() == (
            f"By the server's arrival stamps: {landed} ({ben}) landed first; {refused} ({ann}) "
            f"arrived {int(race['gapUs']) / 1000:.3f} ms later and was refused."
        )
        assert await table_box(page) == before  # the times open over the table
        await screenshot(page, "spit-race-stamps-desktop")
        await page.set_viewport_size(PHONE)
        await screenshot(page, "spit-race-stamps-phone")
        await page.click(STAMPS)
        await screenshot(page, "spit-race-lost-phone")


async def test_a_won_race_names_the_loser_and_the_gap(arena: Arena) -> None:
    async with duel(arena) as match:
        page = match.page
        before = await table_box(page)
        await ann_wins_a_race(match)
        race = await the_race(page)
        landed, refused, pile = race["landedCard"], race["refusedCard"], race["pile"]
        ben, _ = await names(match)
        won = page.locator(".notices .notice", has_text=f"Your {landed} beat")
        await won.wait_for()
        text = await won.inner_text()
        assert text.startswith(f"Your {landed} beat {ben}'s {refused} to centre pile {pile + 1}")
        assert abs(gap_ms(text) - int(race["gapUs"]) / 1000) <= 0.5
        assert await page.locator(".notices .notice", has_text=refused).count() == 1
        assert await table_box(page) == before
        await screenshot(page, "spit-race-won-desktop")
        await page.set_viewport_size(PHONE)
        await screenshot(page, "spit-race-won-phone")


async def test_a_race_on_one_device_names_both_players_once(arena: Arena) -> None:
    async with hot_seat(arena) as match:
        page = match.page
        before = await table_box(page)
        await ann_wins_a_race(match)
        race = await the_race(page)
        landed, refused, pile = race["landedCard"], race["refusedCard"], race["pile"]
        second, first = await names(match)
        text = await page.locator(f"{NEWEST} > .notice.race").inner_text()
        assert text.startswith(
            f"{first}'s {landed} beat {second}'s {refused} to centre pile {pile + 1} by "
        )
        assert abs(gap_ms(text) - int(race["gapUs"]) / 1000) <= 0.5
        # Each seat's socket brought the race: one notice.
        await page.wait_for_function(
            "() => document.querySelectorAll('[data-pile].race-landed').length === 1"
        )
        assert await page.locator(".notices .notice", has_text=refused).count() == 1
        assert await table_box(page) == before
        await screenshot(page, "spit-race-hot-seat-desktop")
        await page.set_viewport_size(PHONE)
        await screenshot(page, "spit-race-hot-seat-phone")
