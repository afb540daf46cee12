"""Spit's round end told at the next round's Ready gate: who went out, who took which centre
pile, how many cards each now holds, as the round's last step tells it; the account lies
over the emptied centre (the table does not move) and goes once play resumes. Against the
computer it speaks to "you"; on one device holding both seats it names both players."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

import pytest
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import spit_pb2
from tests.web.browser import DESKTOP, PHONE, last_update, new_page, screenshot, sign_in
from tests.web.conftest import Arena
from tests.web.sockets import Traffic
from tests.web.test_spit import next_move, spit_view
from tests.web.test_spit_notices import Duel, hot_seat, play_on, spit, wait_for_seq

pytestmark = pytest.mark.asyncio(loop_scope="module")

GATE_NONE, GATE_CONTINUE = 0, 2
STEP_LIMIT = 400
STEP_WAIT_MS = 3000
CLICK_MS = 2000
ATTEMPTS = 3  # a match may end within its first round (a player out of spit cards goes out)
PANEL = ".spit-round-end"
STOCK = "[data-stock='{}'] .card"


def cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def ending(traffic: Traffic) -> tuple[arbitration_pb2.MatchUpdate, spit_pb2.SpitView]:
    """The update of the step that ended round 1, and the table just before that step."""
    updates = [update for socket in traffic.sockets for update in socket.views()]
    last = next(u for u in updates if any(e.spit.HasField("round_ended") for e in u.events))
    version = last.view.spit.version
    before = next(u.view.spit for u in updates if u.view.spit.version == version - 1)
    return last, before


def told(
    update: arbitration_pb2.MatchUpdate, before: spit_pb2.SpitView, mine: int
) -> tuple[str, str]:
    """The panel's title and text for the round end ``update`` tells (``mine``: the seat
    the page alone holds, -1 for both), the pile sizes from the table ``before`` it."""
    [ended] = [e.spit.round_ended for e in update.events if e.spit.HasField("round_ended")]
    [played] = [e.spit.played for e in update.events if e.spit.HasField("played")]
    finisher, other = ended.finisher, 1 - ended.finisher
    names = [f"{p.name} (guest)" if p.guest and not p.bot else p.name for p in update.players]

    def who(seat: int) -> str:
        return "You" if seat == mine else names[seat]

    sizes = [pile.size + (index == played.pile) for index, pile in enumerate(before.centre)]
    taken, rest = sizes[ended.taken], sizes[1 - ended.taken]
    left = sum(pile.HasField("top") + pile.hidden for pile in before.sides[other].stock)
    # The counts the event gives are the piles taken plus each seat's own cards (rules §3.5).
    assert ended.card_counts[finisher] == before.sides[finisher].spit_count + taken
    assert ended.card_counts[other] == before.sides[other].spit_count + left + rest
    assert taken <= rest and left > 0
    which = "centre pile" if taken == rest else "the smaller centre pile, pile"
    whose = "your" if other == mine else "their"
    has = "have" if finisher == mine else "has"
    text = (
        f"{who(finisher)} took {which} {ended.taken + 1} ({cards(taken)}). "
        f"{who(other)} took pile {2 - ended.taken} ({cards(rest)}) with {whose} {cards(left)} "
        f"left in stock. {who(finisher)} now {has} {cards(ended.card_counts[finisher])}, "
        f"{'you' if other == mine else names[other]} {ended.card_counts[other]}."
    )
    return f"Round {ended.round_no}: {who(finisher)} went out.", text


async def centre_box(page: Page) -> list[float]:
    """Where the centre piles are on the page (from the document's top): x, y, w, h."""
    box: list[float] = await page.evaluate(
        """() => { const r = document.querySelector('.spit-table .centre').getBoundingClientRect();
                   return [r.left, r.top + window.scrollY, r.width, r.height]; }"""
    )
    return box


async def click(page: Page, selector: str) -> None:
    """Click, unless the element is gone meanwhile (a spit the server made itself)."""
    with suppress(PlaywrightTimeoutError):
        await page.click(selector, timeout=CLICK_MS)


async def to_round_two(page: Page, step: Callable[[dict[str, Any]], Awaitable[int]]) -> bool:
    """Take ``step`` (it returns the seq to wait for, or 0) until round 2 waits at its Ready
    gate: True; False when the match ended first."""
    for _ in range(STEP_LIMIT):
        update = await last_update(page)
        assert update is not None
        view = spit_view(update)
        if view["winner"] >= 0:
            return False
        if view["roundNo"] >= 2:
            assert view["gate"] == GATE_CONTINUE, view
            return True
        seq = await step(update)
        try:
            await wait_for_seq(page, max(seq, int(update["seq"]) + 1), timeout_ms=STEP_WAIT_MS)
        except PlaywrightTimeoutError:
            continue  # nothing changed (a refusal, or a spit is due): look again
    pytest.fail("round 1 did not end")


def page_plays(page: Page) -> Callable[[dict[str, Any]], Awaitable[int]]:
    """One step in the page by clicks: Ready, Spit, or a play or move of its seat."""

    async def step(update: dict[str, Any]) -> int:
        if await page.locator("#ready").count():
            await click(page, "#ready")
        elif await page.locator("#spit").count():
            await click(page, "#spit")
        elif (move := next_move(spit_view(update), update["seat"])) is not None:
            kind, first, second = move
            await click(page, STOCK.format(first))
            await click(page, f"[data-pile='{second}']" if kind == "play" else STOCK.format(second))
        return 0

    return step


async def check_on_phone(page: Page, name: str) -> None:
    """The panel fits a phone's width and nothing scrolls sideways."""
    await page.set_viewport_size(PHONE)
    box = await page.locator(PANEL).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    await screenshot(page, name)
    await page.set_viewport_size(DESKTOP)


async def gone_once_play_resumes(page: Page, centre: list[float]) -> None:
    """Press Ready (for the seats the page holds that are still to press); the panel goes
    as the round's first spit comes, and the centre piles are where they were under it."""
    await page.click("#ready")
    await page.wait_for_function(
        "() => window.__pf.last()?.update?.view?.kind?.value?.mustPress?.length === 0"
    )
    await page.wait_for_selector(PANEL, state="detached")
    update = await last_update(page)
    assert update is not None
    view = spit_view(update)
    assert view["roundNo"] == 2 and view["gate"] != GATE_CONTINUE
    assert any(pile["size"] for pile in view["centre"])  # the spit (alone, without a spit pile)
    assert await centre_box(page) == centre


async def test_the_round_end_is_told_at_the_next_ready_gate_and_goes_when_play_resumes(
    arena: Arena,
) -> None:
    for _ in range(ATTEMPTS):
        page = await new_page(arena.browser, arena.url)
        traffic = Traffic(page)
        await sign_in(page, "Sprinter")
        await page.select_option("#spit-level", "1")
        await page.click("#spit-computer")
        await page.wait_for_selector(".spit-table")
        if await to_round_two(page, page_plays(page)):
            break
        await page.context.close()
    else:
        pytest.fail("every match ended in its first round")
    update, before = ending(traffic)
    title, text = told(update, before, mine=update.seat)
    panel = page.locator(PANEL)
    await panel.wait_for()
    assert await panel.locator("h3").inner_text() == title
    assert await panel.locator("p").inner_text() == text
    assert title.startswith("Round 1: ") and (" You " in f" {text} ")
    # Told still once the computer has pressed Ready (an update with other events).
    await page.wait_for_function(
        "seat => { const v = window.__pf.last()?.update?.view?.kind?.value; "
        "return v && v.mustPress.length === 1 && v.mustPress[0] === seat; }",
        arg=update.seat,
    )
    assert await panel.locator("p").inner_text() == text
    centre = await centre_box(page)
    await screenshot(page, "spit-round-end-desktop")
    await check_on_phone(page, "spit-round-end-phone")
    await gone_once_play_resumes(page, centre)
    await page.context.close()


@asynccontextmanager
async def one_device(arena: Arena) -> AsyncIterator[tuple[Duel, Traffic]]:
    """A started Spit match of two on Ann's page, its sockets recorded from the start: seat 0
    plays in the page, seat 1 from here (``test_spit_notices.hot_seat``)."""
    recorded: list[Traffic] = []
    async with hot_seat(arena, on_page=lambda page: recorded.append(Traffic(page))) as duel:
        yield duel, recorded[0]


async def test_on_one_device_the_round_end_names_both_players(arena: Arena) -> None:
    for _ in range(ATTEMPTS):
        async with one_device(arena) as (match, traffic):
            page = match.page

            async def step(update: dict[str, Any]) -> int:
                return await play_on(match, spit_view(update))

            if not await to_round_two(page, step):
                continue
            update, before = ending(traffic)
            title, text = told(update, before, mine=-1)
            panel = page.locator(PANEL)
            await panel.wait_for()
            assert await panel.locator("h3").inner_text() == title
            assert await panel.locator("p").inner_text() == text
            assert "You" not in title + text and "you" not in title + text
            # Seat 1's commands come from here, numbered past the page's: its Ready too.
            await wait_for_seq(page, await match.ben_sends(spit(ready=spit_pb2.SpitReady())))
            assert await panel.locator("p").inner_text() == text
            centre = await centre_box(page)
            await screenshot(page, "spit-round-end-hot-seat-desktop")
            await check_on_phone(page, "spit-round-end-hot-seat-phone")
            await gone_once_play_resumes(page, centre)
            return
    pytest.fail("every match ended in its first round")
