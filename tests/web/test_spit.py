"""Spit against the computer in the browser: a whole match to its end, with a pause, played
on the play socket."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page

from tests.web.browser import (
    click_if_reachable,
    click_if_shown,
    last_update,
    new_page,
    screenshot,
    sign_in,
)
from tests.web.conftest import Arena
from tests.web.sockets import Traffic

pytestmark = pytest.mark.asyncio(loop_scope="module")

GATE_PAUSED = 4
STEP_LIMIT = 5000


def adjacent(a: int, b: int) -> bool:
    return abs(a - b) in (1, 12)


def spit_view(update: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = update["view"]["kind"]["value"]
    return view


def next_move(view: dict[str, Any], seat: int) -> tuple[str, int, int] | None:
    """A play ("play", stock, pile) or a move into an empty space ("move", src, dst)."""
    stock = view["sides"][seat]["stock"]
    for index, pile in enumerate(stock):
        top = pile.get("top")
        if not top:
            continue
        for target, centre in enumerate(view["centre"]):
            if centre.get("top") and adjacent(top["rank"], centre["top"]["rank"]):
                return ("play", index, target)
    empty = [i for i, pile in enumerate(stock) if not pile.get("top")]
    for index, pile in enumerate(stock):
        if empty and pile.get("top") and pile.get("hidden", 0) > 0:
            return ("move", index, empty[0])
    return None


async def take_next_move(page: Page, move: tuple[str, int, int] | None = None) -> None:
    """The page plays a card, or uncovers one into an empty space (``move``, else its next
    move now), by two clicks. The round can end between the look and a click, its panel
    over the table: then nothing is clicked and the caller looks again."""
    if move is None:
        update = await last_update(page)
        move = next_move(spit_view(update), update["seat"]) if update else None
    if move is not None:
        kind, first, second = move
        if await click_if_reachable(page, f"[data-stock='{first}'] .card"):
            target = (
                f"[data-pile='{second}']" if kind == "play" else f"[data-stock='{second}'] .card"
            )
            await click_if_reachable(page, target)


async def wait_for_change(page: Page, seq: str) -> None:
    """Wait until the page holds a newer update than ``seq`` (or a race notice)."""
    await page.wait_for_function(
        "seq => { const l = window.__pf.last(); return l && l.update && "
        "(l.update.seq.toString() !== seq); }",
        arg=seq,
    )


async def pause_and_resume(page: Page) -> None:
    await page.click("#pause")
    await page.wait_for_selector(".paused-banner")
    update = await last_update(page)
    assert update is not None
    assert spit_view(update)["paused"] is True
    assert update["decision"]["gate"] == GATE_PAUSED
    await screenshot(page, "spit-paused")
    await page.click("#resume")
    await page.wait_for_selector(".paused-banner", state="detached")
    resumed = await last_update(page)
    assert resumed is not None and spit_view(resumed)["paused"] is False


async def test_a_whole_spit_match_against_the_easy_computer_with_a_pause(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    traffic = Traffic(page)
    await sign_in(page, "Sprinter")
    await page.select_option("#spit-level", "1")
    await page.click("#spit-computer")
    await page.wait_for_selector(".spit-table")
    await screenshot(page, "spit-start")
    paused = played_by_key = False
    for _ in range(STEP_LIMIT):
        if await page.locator(".end-panel").count():
            break
        update = await last_update(page)
        assert update is not None
        seq, view = update["seq"], spit_view(update)
        seat = update["seat"]
        if await click_if_shown(page, "#ready") or await click_if_shown(page, "#spit"):
            pass
        elif view["gate"] == 0 and not paused:
            await pause_and_resume(page)
            paused = True
            continue
        elif (move := next_move(view, seat)) is not None:
            kind, first, second = move
            if kind == "play" and not played_by_key:
                await page.keyboard.press(str(first + 1))
                await page.keyboard.press("ArrowLeft" if second == 0 else "ArrowRight")
                played_by_key = True
            else:
                await take_next_move(page, move)
        try:
            await wait_for_change(page, seq)
        except Exception:
            continue  # nothing changed (a refused or lost race): look again
    else:
        pytest.fail("the match did not end")
    await page.wait_for_selector(".end-panel h3")
    await screenshot(page, "spit-end")
    update = await last_update(page)
    assert update is not None
    assert update["status"] == 2  # finished
    assert spit_view(update)["winner"] in (0, 1)
    assert paused and played_by_key
    assert "won" in (await page.inner_text(".end-panel")).lower()
    # Commands and updates went on the seat's socket. Over gRPC-web, at most a command
    # sent on the socket just as it closed at the end, again (the same client_seq).
    [socket] = traffic.sockets
    assert len(socket.submits()) > 10 and socket.updates()[-1].status == update["status"]
    assert "Watch" not in traffic.calls
    assert len(traffic.grpc_web_submits) <= 1
    assert set(traffic.grpc_web_submits) <= set(traffic.unanswered())
