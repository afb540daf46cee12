"""My games and the replay viewer in Chromium: Ann (an account, signed in in the page) and
Ben (an account too: rated play is for accounts) play a rated Spit match from here with a
race in it, Ben resigns; the page finds it in My games
and replays it step by step, the board checked at several steps against the server's
replay, the race drawn with both stamps, a step reached by its link."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Page

from clients.arena import ArenaClient, unique_username
from clients.grpcweb import CallError
from photofinish.arbitration.v1 import replay_pb2
from photofinish.game.v1 import game_pb2, spit_pb2
from tests.web.axe import assert_accessible
from tests.web.browser import PASSWORD, PHONE, new_page, screenshot, sign_in_account
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")

ATTEMPTS = 30
POLLS = 100


def spit(**command: Any) -> game_pb2.Command:
    return game_pb2.Command(spit=spit_pb2.SpitCommand(**command))


def adjacent(a: int, b: int) -> bool:
    return abs(a - b) in (1, 12)


async def latest(client: ArenaClient, match_id: str, seat: int) -> spit_pb2.SpitView:
    stream = client.watch(match_id, seat)
    try:
        update = await anext(stream)
    finally:
        await stream.aclose()
    return update.view.spit


async def started_match(ann: ArenaClient, ben: ArenaClient) -> tuple[str, int, int]:
    """A rated Spit match by challenge code, both Ready; return (match, Ann's, Ben's seat)."""
    challenge = ann.create_challenge(game_pb2.GAME_SPIT, rated=True)
    code = (await anext(challenge)).code
    assignment = await ben.accept_challenge(code)
    await challenge.aclose()
    ben_seat = assignment.seats[0]
    ann_seat = 1 - ben_seat
    await ann.submit(assignment.match_id, ann_seat, spit(ready=spit_pb2.SpitReady()))
    await ben.submit(assignment.match_id, ben_seat, spit(ready=spit_pb2.SpitReady()))
    return assignment.match_id, ann_seat, ben_seat


def uncovering(view: spit_pb2.SpitView, seat: int) -> spit_pb2.SpitMove | None:
    """A move of ``seat``'s into an empty space that uncovers a card, if there is one."""
    stock = view.sides[seat].stock
    empty = [i for i, s in enumerate(stock) if not s.HasField("top")]
    covering = [i for i, s in enumerate(stock) if s.HasField("top") and s.hidden > 0]
    return spit_pb2.SpitMove(src=covering[0], dst=empty[0]) if empty and covering else None


async def unblock(
    players: tuple[ArenaClient, ArenaClient],
    match_id: str,
    seats: tuple[int, int],
    view: spit_pb2.SpitView,
) -> None:
    """Ann plays a card of hers that fits, if she has one; else she or Ben uncovers a card
    (while someone can, nobody is blocked and no spit comes); else a spit is due."""
    (ann, ben), (ann_seat, ben_seat) = players, seats
    for stock, s in enumerate(view.sides[ann_seat].stock):
        for pile, c in enumerate(view.centre):
            if s.HasField("top") and c.HasField("top") and adjacent(s.top.rank, c.top.rank):
                play = spit_pb2.SpitPlay(stock=stock, pile=pile, onto=c.top.rank)
                with contextlib.suppress(CallError):
                    await ann.submit(match_id, ann_seat, spit(play=play))
                return
    for player, seat in ((ann, ann_seat), (ben, ben_seat)):
        if (move := uncovering(view, seat)) is not None:
            with contextlib.suppress(CallError):
                await player.submit(match_id, seat, spit(move=move))
            return
    await asyncio.sleep(0.3)


async def race(ann: ArenaClient, ben: ArenaClient, match_id: str, seats: tuple[int, int]) -> None:
    """Ben lands a card on a pile; Ann then plays onto the top she saw there: a lost race."""
    ann_seat, ben_seat = seats
    for _ in range(ATTEMPTS):
        view = await latest(ben, match_id, ben_seat)
        ben_plays = [
            (stock, pile)
            for stock, s in enumerate(view.sides[ben_seat].stock)
            for pile, c in enumerate(view.centre)
            if s.HasField("top") and c.HasField("top") and adjacent(s.top.rank, c.top.rank)
        ]
        ann_stock = [i for i, s in enumerate(view.sides[ann_seat].stock) if s.HasField("top")]
        if view.gate in (game_pb2.GATE_START, game_pb2.GATE_CONTINUE):
            # A round ended (a stock emptied while Ann unblocked Ben): both press Ready. The
            # loop slept through this gate before, and ran out of attempts with no race.
            for player, seat in ((ann, ann_seat), (ben, ben_seat)):
                with contextlib.suppress(CallError):  # pressed already
                    await player.submit(match_id, seat, spit(ready=spit_pb2.SpitReady()))
            continue
        if view.gate == game_pb2.GATE_SPIT:
            with contextlib.suppress(CallError):  # the arbitration spat first: not_blocked
                await ben.submit(match_id, ben_seat, spit(spit=spit_pb2.SpitSpit()))
            continue
        if not ben_plays or not ann_stock:
            await unblock((ann, ben), match_id, seats, view)  # so that Ben may play
            continue
        stock, pile = ben_plays[0]
        onto = view.centre[pile].top.rank
        await ben.submit(
            match_id, ben_seat, spit(play=spit_pb2.SpitPlay(stock=stock, pile=pile, onto=onto))
        )
        with pytest.raises(CallError) as lost:
            play = spit_pb2.SpitPlay(stock=ann_stock[0], pile=pile, onto=onto)
            await ann.submit(match_id, ann_seat, spit(play=play))
        if lost.value.reason == "pile_top_changed":
            return
    pytest.fail("no race happened")


async def whole_replay(client: ArenaClient, match_id: str) -> list[replay_pb2.ReplayStep]:
    steps: list[replay_pb2.ReplayStep] = []
    total = 1
    while len(steps) < total:
        page = await client.replay(match_id, len(steps))
        total = page.total_steps
        steps += page.steps
    return steps


def centre_tops(views: list[dict[str, Any]]) -> list[str]:
    """The centre piles' top cards in a step's first view, as the page holds it."""
    centre = views[0]["kind"]["value"]["centre"]
    return [pile["top"]["text"] if pile.get("top") else "" for pile in centre]


async def shown(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = await page.evaluate(
        """() => JSON.parse(JSON.stringify(window.__pf.replay(),
                 (k, v) => typeof v === 'bigint' ? v.toString() : v))"""
    )
    return result


async def check_board(page: Page, step: int, server: list[list[str]]) -> None:
    """The page shows ``step`` and its board: the server's centre tops at that step."""
    # Loaded (the steps are there) and at the step.
    await page.wait_for_function(
        f"() => window.__pf.replay()?.total > 0 && window.__pf.replay().step === {step}"
    )
    held = await shown(page)
    assert centre_tops(held["views"]) == server[step]
    drawn = [
        await page.locator(f".replay-pile.centre[data-pile='{p}'] .card").get_attribute(
            "aria-label"
        )
        or ""
        for p in (0, 1)
    ]
    assert drawn == server[step]


async def test_a_finished_match_is_found_in_my_games_and_replayed_race_and_all(
    arena: Arena,
) -> None:
    page = await new_page(arena.browser, arena.url)
    async with aiohttp.ClientSession() as session:
        ann, ben = ArenaClient(session, arena.url), ArenaClient(session, arena.url)
        username = unique_username("Ann")
        await ann.sign_up(username, PASSWORD, "a test")
        await sign_in_account(page, username)  # the same player in the page
        await ben.sign_up_new("Ben")
        match_id, ann_seat, ben_seat = await started_match(ann, ben)
        await race(ann, ben, match_id, (ann_seat, ben_seat))
        # Ben, whose card landed, resigns: a resignation before one's first move would
        # abort the rated match instead (docs/ratings.md), and Ann's card lost its race.
        await ben.submit(match_id, ben_seat, spit(resign=spit_pb2.SpitResign()))
        for _ in range(POLLS):  # the ratings service takes the result from the stream
            history = await ann.get_history(ann.player_id, game_pb2.GAME_UNSPECIFIED)
            if any(e.match_id == match_id for e in history.entries):
                break
            await asyncio.sleep(0.2)
        steps = await whole_replay(ann, match_id)

    views: list[list[str]] = []
    for step in steps:
        tops = [p.top.text for p in step.views[0].spit.centre] if step.views else views[-1]
        views.append(tops)
    [race_step] = [i for i, s in enumerate(steps) if s.entry.HasField("race")]
    record = steps[race_step].entry.race

    await page.click("#my-games")
    row = page.locator(f"tr[data-match='{match_id}']")
    await row.wait_for()
    assert "Won" in await row.locator(".result").inner_text()
    assert "→" in await row.locator(".change").inner_text()  # rated: the change and after
    await screenshot(page, "my-games-desktop")
    await assert_accessible(page)
    await row.locator(".replay-open").click()
    await check_board(page, 0, views)
    assert await page.locator("#replay-counter").inner_text() == f"Step 0 of {len(steps) - 1}"
    walked = min(5, len(steps) - 1)
    for index in range(1, walked + 1):  # the keys step through it
        await page.keyboard.press("ArrowRight")
        await check_board(page, index, views)
    await page.click("#replay-prev")
    await check_board(page, walked - 1, views)
    await page.keyboard.press("End")
    await check_board(page, len(steps) - 1, views)
    assert "won by resignation" in await page.locator("#replay-title").inner_text()

    # The race's step by its link, as shared: both cards, both stamps, the gap, who landed.
    await page.evaluate(f"() => location.hash = '#replay/{match_id}/{race_step}'")
    await check_board(page, race_step, views)
    panel = page.locator(".replay-race")
    assert await panel.locator(".landed .race-card").inner_text() == record.landed_card
    assert await panel.locator(".refused .race-card").inner_text() == record.refused_card
    landed_at = f"{record.landed_arrival_us / 1000:.3f} ms"
    refused_at = f"{record.refused_arrival_us / 1000:.3f} ms"
    assert await panel.locator(".landed .race-stamp").inner_text() == landed_at
    assert await panel.locator(".refused .race-stamp").inner_text() == refused_at
    assert f"Gap: {record.gap_us / 1000:.3f} ms" in await panel.locator(".race-gap").inner_text()
    assert page.url.endswith(f"#replay/{match_id}/{race_step}")
    await screenshot(page, "replay-race-desktop")
    await assert_accessible(page)
    await page.set_viewport_size(PHONE)
    await screenshot(page, "replay-race-phone")
    await page.click("#replay-back")
    await row.wait_for()
    await screenshot(page, "my-games-phone")
    await page.context.close()
