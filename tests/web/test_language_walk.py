"""A newcomer who reads only Arabic (right to left) or only Korean walks the page on a phone
(390x844): sign-up, the Devices screen, the lobby, Spit and Spectacular Bid against the
computer, an online challenge with a guest who reads the same language, a tournament's page
and a finished match's replay. At each screen: <html lang dir>,
no English words from the catalog on screen, nothing leaving the screen sideways or cut by
its box, and axe; each step photographed (var/screenshots/walk-<lang>-<step>.png)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.async_api import Page

from tests.web.axe import assert_accessible
from tests.web.bidding import bid_view, current, play_step, wait_for_newer
from tests.web.browser import (
    PHONE,
    click_if_shown,
    last_update,
    new_page,
    resign,
    screenshot,
    sign_in,
    sign_up_new,
)
from tests.web.conftest import Arena
from tests.web.test_spit import next_move, spit_view, take_next_move, wait_for_change

pytestmark = pytest.mark.asyncio(loop_scope="module")

CATALOGS = Path(__file__).resolve().parents[2] / "clients/web/src/i18n/catalogs"
DIRECTION = {"ar": "rtl", "ko": "ltr"}
MIN_WORDS = 2
MIN_LETTERS = 8
SPIT_MOVES = 4
BID_PLAYS = 3
STEP_LIMIT = 400
GATE_NONE = 0


def literal_runs(message: str) -> list[str]:
    """The message's own text between its placeholders and ICU syntax: text lies at an even
    depth of braces ("{n, plural, one {# card} …}": "# card" is at 2), a plural's "#" is a
    number, and a quoted apostrophe ('') is one."""
    runs: list[str] = []
    run: list[str] = []
    depth = 0
    for char in message.replace("''", "'"):
        if char in "{}":
            runs.append("".join(run))
            run = []
            depth += 1 if char == "{" else -1
        elif depth % 2 == 0 and char != "#":
            run.append(char)
        elif depth % 2 == 0:
            runs.append("".join(run))
            run = []
    runs.append("".join(run))
    return [" ".join(r.split()) for r in runs]


def english_runs(language: str) -> dict[str, str]:
    """Each English run worth looking for (two words or more, eight letters or more) and its
    key; a run the language's own message keeps verbatim (a name, a code) is not English."""
    english: dict[str, str] = json.loads((CATALOGS / "en.json").read_text())
    target: dict[str, str] = json.loads((CATALOGS / f"{language}.json").read_text())
    found: dict[str, str] = {}
    for key, message in english.items():
        for run in literal_runs(message):
            words = [word for word in run.split() if any(c.isalpha() for c in word)]
            letters = sum(c.isalpha() for c in run)
            if len(words) < MIN_WORDS or letters < MIN_LETTERS:
                continue
            if run in target.get(key, ""):
                continue
            found.setdefault(run, key)
    # A computer player's name as the server gives it ("Computer (easy)"): English's
    # names.computer with an English level, shown only where the page did not word it.
    for level in ("easy", "medium", "hard"):
        name = english["names.computer"].replace("{level}", english[f"names.level.{level}"])
        found.setdefault(name, "names.computer")
    return found


# Every element shown that leaves the screen sideways, and every box that hides or clips
# what it holds and holds more than it shows. An intended scroller (overflow auto/scroll: the
# Bid board, a replay's line) and what it holds are left out, and so are visually hidden
# texts (1 px boxes for screen readers).
OUTSIDE_OR_CUT = """width => {
    const found = [];
    const label = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
        + [...e.classList].map(c => '.' + c).join('')
        + ' "' + (e.innerText || '').trim().slice(0, 40) + '"';
    const scrolls = s => ['auto', 'scroll'].includes(s.overflowX);
    for (const e of document.body.querySelectorAll('*')) {
        const s = getComputedStyle(e);
        if (s.display === 'none' || s.visibility === 'hidden') continue;
        const r = e.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) continue;
        let inside = false;
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
            if (scrolls(getComputedStyle(a))) { inside = true; break; }
        if (inside) continue;
        if (r.left < -0.5 || r.right > width + 0.5)
            found.push(`${label(e)} leaves the screen: ${r.left | 0}..${r.right | 0}`);
        const hides = ['hidden', 'clip'].includes(s.overflowX);
        if (hides && e.scrollWidth > e.clientWidth + 1)
            found.push(`${label(e)} is cut: ${e.scrollWidth} in ${e.clientWidth}`);
        const parent = e.parentElement;
        if (s.position === 'absolute' || s.position === 'fixed' || !parent) continue;
        // Measured against a parent that is a box of its own (not inline, not display:
        // contents as a message's span.msg is).
        if (!['block', 'flex', 'grid', 'flow-root', 'list-item']
                .includes(getComputedStyle(parent).display)) continue;
        const p = parent.getBoundingClientRect();
        const ps = getComputedStyle(parent);
        const edge = name => parseFloat(ps[name]) || 0;
        if (parent !== document.body && (r.left < p.left + edge('borderLeftWidth') - 1
                || r.right > p.right - edge('borderRightWidth') + 1))
            found.push(`${label(e)} spills out of ${label(parent)}: `
                + `${r.left | 0}..${r.right | 0} in ${p.left | 0}..${p.right | 0}`);
    }
    return found;
}"""


async def html(page: Page) -> dict[str, str]:
    found: dict[str, str] = await page.evaluate(
        "() => ({lang: document.documentElement.lang, dir: document.documentElement.dir})"
    )
    return found


class Walk:
    """One language's walk: the checks made at each screen, and its photographs. What a
    check finds is kept, and the walk goes on: the test fails at its end with all of it."""

    def __init__(self, page: Page, language: str) -> None:
        self.page = page
        self.language = language
        self.runs = english_runs(language)
        self.shots: list[Path] = []
        self.problems: list[str] = []

    async def english_on_screen(self) -> list[str]:
        text: str = await self.page.evaluate("() => document.body.innerText")
        text = " ".join(text.split())
        return [f"{key}: {run!r}" for run, key in self.runs.items() if run in text]

    async def check(self, step: str) -> None:
        page = self.page
        self.shots.append(await screenshot(page, f"walk-{self.language}-{step}"))
        found = await html(page)
        if found != {"lang": self.language, "dir": DIRECTION[self.language]}:
            self.problems.append(f"{step}: <html> {found}")
        english = await self.english_on_screen()
        if english:
            self.problems.append(f"{step}: English on screen: {english}")
        wide = await page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        if wide > 0:
            self.problems.append(f"{step}: {wide} px of sideways scroll")
        bad = await page.evaluate(OUTSIDE_OR_CUT, PHONE["width"])
        if bad:
            self.problems.append(f"{step}: {bad}")
        try:
            await assert_accessible(page)
        except AssertionError as error:
            self.problems.append(f"{step}: axe: {error}")


async def play_spit(walk: Walk) -> None:
    """Ready, then a few of the page's own moves (or a spit when one is due)."""
    page = walk.page
    await page.select_option("#spit-level", "1")
    await page.click("#spit-computer")
    await page.wait_for_selector(".spit-table")
    await page.wait_for_selector("#ready")
    await walk.check("spit-start")
    await click_if_shown(page, "#ready")
    await page.wait_for_function(
        "() => window.__pf.last()?.update?.view?.kind?.value?.mustPress?.length === 0"
    )
    moved = 0
    for _ in range(STEP_LIMIT):
        if moved >= SPIT_MOVES or await page.locator(".end-panel").count():
            break
        update = await last_update(page)
        assert update is not None
        if await click_if_shown(page, "#ready") or await click_if_shown(page, "#spit"):
            pass
        elif (move := next_move(spit_view(update), update["seat"])) is not None:
            await take_next_move(page, move)
            moved += 1
        try:
            await wait_for_change(page, update["seq"])
        except Exception:
            continue  # nothing changed (a refused or lost race): look again
    await walk.check("spit-play")
    await resign(page)
    await page.wait_for_selector(".end-panel h3")
    await walk.check("spit-end")
    await page.click("#leave")
    await page.wait_for_selector(".lobby")


async def play_bid(walk: Walk) -> None:
    """Start, through the auction (one bid, then accept or pass), and a few plays."""
    page = walk.page
    await page.click("#bid-computer")
    await page.wait_for_selector("#ready")
    await walk.check("bid-start")
    state: dict[str, bool] = {}
    seen: set[str] = set()
    plays = 0
    for _ in range(STEP_LIMIT):
        if ("auction" in seen and plays >= BID_PLAYS) or await page.locator(".end-panel").count():
            break
        update = await current(page)
        view = bid_view(update)
        seat, gate = update["seat"], update["decision"]["gate"]
        mine = view["decide"] == [seat] and gate == GATE_NONE
        if mine and "auction" not in seen and await page.locator(".auction-buttons").count():
            seen.add("auction")
            await walk.check("bid-auction")
        if mine and await page.locator(".hand-tile.playable").count():
            if "play" not in seen:
                seen.add("play")
                await walk.check("bid-play")
            plays += 1
        if (mine or gate != GATE_NONE) and not await play_step(page, update["seq"], True, state):
            continue
        try:
            await wait_for_newer(page, update["seq"])
        except Exception:
            continue
    assert {"auction", "play"} <= seen, seen
    await walk.check("bid-later")
    await resign(page)
    await page.wait_for_selector(".end-panel h3")
    await walk.check("bid-end")
    await page.click("#leave")
    await page.wait_for_selector(".lobby")


async def online(walk: Walk, arena: Arena) -> None:
    """A casual Spit challenge: the newcomer gives the code, a guest who reads the same
    language accepts it on another phone, both press Ready; the guest resigns."""
    page = walk.page
    rival_page = await new_page(arena.browser, arena.url, phone=True)
    await rival_page.select_option("#language", walk.language)
    rival = Walk(rival_page, walk.language)
    await sign_in(rival_page, "Rival")
    await page.uncheck("#spit-rated")
    await page.click("#spit-challenge")
    code = await page.inner_text("#challenge-code")
    await walk.check("challenge-code")
    await rival_page.fill("#spit-code", code)
    await rival_page.click("#spit-accept")
    for each in (walk, rival):
        await each.page.wait_for_selector("#ready")
    await walk.check("online-start")
    for player in (page, rival_page):
        await player.click("#ready")
    for player in (page, rival_page):
        await player.wait_for_function(
            "() => window.__pf.last()?.update?.view?.kind?.value?.mustPress?.length === 0"
        )
    await rival.check("online-guest")
    await resign(rival_page)
    await page.wait_for_selector(".end-panel h3")
    await walk.check("online-end")
    await rival.check("online-guest-end")
    walk.problems += [f"the guest's {problem}" for problem in rival.problems]
    await rival_page.context.close()
    await page.click("#leave")
    await page.wait_for_selector(".lobby")


async def tournament(walk: Walk) -> None:
    page = walk.page
    await page.click(".create-tournament summary")
    await walk.check("tournament-form")
    await page.fill("#tournament-name", f"Walk {walk.language}")
    await page.uncheck("#tournament-rated")
    await page.click("#tournament-create")
    await page.wait_for_selector(".tournament-page .standings-table")
    await walk.check("tournament-page")
    await page.click("#tournament-back")
    await page.wait_for_selector(".lobby")


async def replay(walk: Walk) -> None:
    page = walk.page
    await page.click("#my-games")
    await page.locator("table.games-list tbody tr").first.wait_for()
    await walk.check("my-games")
    await page.locator(".replay-open").first.click()
    await page.wait_for_function("() => window.__pf.replay()?.total > 0")
    await page.click("#replay-next")
    await page.wait_for_function("() => window.__pf.replay()?.step === 1")
    await walk.check("replay")
    await page.click("#replay-back")


@pytest.mark.parametrize("language", ["ar", "ko"])
async def test_a_newcomer_walks_the_page_in_one_language(arena: Arena, language: str) -> None:
    page = await new_page(arena.browser, arena.url, phone=True)
    await page.select_option("#language", language)
    walk = Walk(page, language)
    await page.wait_for_function("lang => document.documentElement.lang === lang", arg=language)
    await walk.check("sign-in")
    await sign_up_new(page, "Walker")
    await walk.check("lobby")
    await page.click("#devices")
    await page.locator("#device-list li").first.wait_for()
    await walk.check("devices")
    await page.click("#devices-back")
    await page.wait_for_selector(".lobby")

    await play_spit(walk)
    await play_bid(walk)
    await online(walk, arena)
    await tournament(walk)
    await replay(walk)
    await page.context.close()
    assert not walk.problems, "\n".join(walk.problems)
