"""Hot-seat Spectacular Bid on one page: the hand-over screen hides the previous hand (in the
DOM, not only from view) and both clocks stand still until the next player reveals."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page

from tests.web.bidding import current, play_step
from tests.web.browser import new_page, screenshot, sign_in
from tests.web.conftest import Arena
from tests.web.sockets import Traffic

pytestmark = pytest.mark.asyncio(loop_scope="module")

GATE_HANDOVER = 5
STILL_MS = 1200


async def server_clock(page: Page) -> dict[str, Any]:
    """The server's clock as a fresh Watch reports it now."""
    clock: dict[str, Any] = await page.evaluate(
        """() => window.__pf.probe().then(r => ({
            running: r.server.running,
            seats: r.server.seats.map(s => [Number(s.graceMs), Number(s.bankMs)]),
        }))"""
    )
    return clock


async def assert_handover_hides_hands(page: Page, name: str) -> None:
    await page.wait_for_selector("#reveal")
    assert await page.locator(".hand, .hand-tile").count() == 0
    update = await current(page)
    assert update["decision"]["gate"] == GATE_HANDOVER
    faces = await page.locator("[data-clock-seat]").all_inner_texts()
    before = await server_clock(page)
    assert before["running"] == -1
    await page.wait_for_timeout(STILL_MS)  # a deliberate pause: a stopped clock stays put
    after = await server_clock(page)
    assert after == before
    assert await page.locator("[data-clock-seat]").all_inner_texts() == faces
    await screenshot(page, name)


async def test_hand_over_hides_the_hand_and_stops_the_clocks_until_reveal(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    traffic = Traffic(page)
    await sign_in(page, "Pat")
    await page.click("#bid-hotseat")
    await page.wait_for_selector("#ready")
    await page.click("#ready")  # presses for both seats held on this device
    await assert_handover_hides_hands(page, "hotseat-handover-first")
    await page.click("#reveal")
    await page.wait_for_selector(".hand-tile")
    first = await current(page)
    mover = first["decision"]["seats"][0]
    assert first["clock"]["running"] == mover
    await screenshot(page, "hotseat-revealed")
    state: dict[str, bool] = {}
    assert await play_step(page, first["seq"], False, state)
    await assert_handover_hides_hands(page, "hotseat-handover-second")
    second = await current(page)
    assert second["decision"]["seats"][0] == 1 - mover
    # Each seat on its own socket, with its own commands: both readies, one reveal each,
    # the mover's play.
    by_seat = {socket.hello().seat: socket for socket in traffic.sockets}
    assert sorted(by_seat) == [0, 1] and len(traffic.sockets) == 2
    assert len(by_seat[mover].submits()) == 3 and len(by_seat[1 - mover].submits()) == 1
    assert "Submit" not in traffic.calls, traffic.calls
