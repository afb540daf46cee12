"""The page's languages in Chromium: the language menu on every screen, <html lang dir>, the
choice kept, a first visit in a language the page lacks; and every word of the page from
the catalogs. For that a test language is made from the English catalog with each letter of
the messages' own text accented ("Rúlés hélp"), right to left: switched to it in the middle
of a match, the sign-in screen, the lobby, the Spit and the Bid tables and a match's end
must show no unaccented word but names and card labels, keep the cards left to right, and
the match must go on, not reloaded; back to English from the menu, they read as before."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, Route

from tests.web.axe import assert_accessible
from tests.web.browser import click_if_shown, last_update, new_page, resign, screenshot, sign_in
from tests.web.conftest import Arena
from tests.web.test_spit import take_next_move

pytestmark = pytest.mark.asyncio(loop_scope="module")

CATALOG = Path(__file__).resolve().parents[2] / "clients/web/src/i18n/catalogs/en.json"
TEST_LANGUAGE = "en-XA"
ACUTE = "\u0301"
CARD = re.compile(r"(10|[2-9AJQK])[♠♥♦♣]")
TILE = re.compile(r"\[\d\|\d\]")
ID_TAG = re.compile(r"#\w{4}\b")
BARE_LETTERS = re.compile(rf"[A-Za-z](?!{ACUTE})")
NEWER_ATTEMPTS = 60
NEWER_PAUSE_MS = 500

# Every text node and every worded attribute under <body>, but the menu's own language
# names (each in its own words), the faces of cards (pictures: "Q" "♥") and key letters:
# what the page says, shown or not.
PAGE_WORDS = """() => {
    const words = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest('script, style, #language, .card, kbd')) continue;
        words.push(node.data);
    }
    const named = ['aria-label', 'title', 'placeholder', 'data-unit'];
    for (const element of document.body.querySelectorAll(named.map(n => `[${n}]`).join(', ')))
        for (const name of named)
            if (element.hasAttribute(name)) words.push(element.getAttribute(name));
    words.push(document.title);
    return words;
}"""


def accented(message: str) -> str:
    """The message with every letter of its own text accented: text lies at an even depth
    of braces ("{n, plural, one {# card} …}": "# card" is at 2, "n, plural, one" at 1)."""
    depth, out = 0, []
    for char in message:
        depth += char == "{"
        depth -= char == "}"
        out.append(char + ACUTE if depth % 2 == 0 and char.isascii() and char.isalpha() else char)
    return "".join(out)


def made_up_catalog() -> dict[str, str]:
    english: dict[str, str] = json.loads(CATALOG.read_text())
    return {key: accented(text) for key, text in english.items()}


async def use_test_language(page: Page) -> None:
    await page.evaluate(
        "([code, catalog]) => window.__pf.language(code, 'rtl', catalog)",
        [TEST_LANGUAGE, made_up_catalog()],
    )


async def unaccented(page: Page, data: list[str]) -> list[str]:
    """The words the page shows that did not come from the catalog: all but `data` (names,
    codes), cards, tiles and id tags."""
    found: list[str] = []
    for words in await page.evaluate(PAGE_WORDS):
        rest = words
        for known in sorted(data, key=len, reverse=True):
            rest = rest.replace(known, "")
        rest = ID_TAG.sub("", TILE.sub("", CARD.sub("", rest)))
        if BARE_LETTERS.search(rest):
            found.append(words)
    return found


async def players(page: Page) -> list[str]:
    update = await last_update(page)
    return [p["name"] for p in (update or {}).get("players", [])] + [
        (update or {}).get("matchId", "")
    ]


async def assert_all_from_catalog(page: Page, data: list[str]) -> None:
    left = await unaccented(page, data)
    assert not left, f"words not from the catalog: {left}"


async def newer_update(page: Page, seq: str) -> dict[str, Any]:
    """The first update newer than ``seq``. The page plays its next move (a card, or one
    uncovered), or spits when one is due: the computer may have no card that fits, and
    then nothing moves until the player does."""
    for _ in range(NEWER_ATTEMPTS):
        update = await last_update(page)
        if update is not None and update["seq"] != seq:
            return update
        if not await click_if_shown(page, "#spit"):
            await take_next_move(page)
        await page.wait_for_timeout(NEWER_PAUSE_MS)
    raise AssertionError(f"no update after seq {seq}")


async def html(page: Page) -> dict[str, str]:
    found: dict[str, str] = await page.evaluate(
        "() => ({lang: document.documentElement.lang, dir: document.documentElement.dir})"
    )
    return found


async def test_the_menu_the_choice_and_a_first_visit(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    assert await html(page) == {"lang": "en", "dir": "ltr"}
    menu = page.get_by_label("Language")
    assert await menu.input_value() == "en"
    assert await menu.locator("option").all_inner_texts() == ["English", "العربية", "한국어"]
    await assert_accessible(page)
    await sign_in(page, "Ann")
    assert await page.get_by_label("Language").is_visible()
    await assert_accessible(page)
    await page.select_option("#language", "ar")  # kept across a reload
    await page.reload()
    assert await html(page) == {"lang": "ar", "dir": "rtl"}
    await page.select_option("#language", "en")
    assert await page.evaluate("localStorage.getItem('pf.language')") == "en"
    await page.context.close()

    # A first visit follows the browser's languages: its primary subtag will do.
    for locale, expected in (
        ("ar-EG", {"lang": "ar", "dir": "rtl"}),
        ("ko-KR", {"lang": "ko", "dir": "ltr"}),
    ):
        context = await arena.browser.new_context(locale=locale)
        page = await context.new_page()
        await page.goto(arena.url)
        assert await html(page) == expected, locale
        await context.close()

    # A browser asking for German, or a stored language the page no longer has: English.
    context = await arena.browser.new_context(locale="de-DE")
    page = await context.new_page()
    await page.goto(arena.url)
    assert await page.evaluate("navigator.languages[0]") == "de-DE"
    assert await html(page) == {"lang": "en", "dir": "ltr"}
    await page.evaluate("localStorage.setItem('pf.language', 'xx')")
    await page.reload()
    assert await html(page) == {"lang": "en", "dir": "ltr"}
    assert await page.get_by_label("Language").input_value() == "en"
    await context.close()


async def test_a_screen_built_across_a_change_is_in_the_new_language(arena: Arena) -> None:
    """The lobby builds each ladder when its answer comes and shows both once both have: a
    change of language between the two answers must reach the first one's table too (each
    message is formatted again as it arrives in the page)."""
    page = await new_page(arena.browser, arena.url)
    held: list[tuple[Route, asyncio.Event]] = []
    both = asyncio.Event()

    async def hold(route: Route) -> None:
        release = asyncio.Event()
        held.append((route, release))
        if len(held) == 2:
            both.set()
        await release.wait()
        await route.continue_()

    await page.route("**/GetLadder", hold)
    await page.fill("#name", "Ann")
    await page.click("#sign-in")
    await both.wait()
    (first, release_first), (_, release_second) = held
    async with page.expect_request_finished(lambda r: r is first.request):
        release_first.set()
    await page.evaluate("() => new Promise((done) => setTimeout(done))")  # its table is built
    await use_test_language(page)
    release_second.set()
    await page.wait_for_selector("table.ladder")
    await assert_all_from_catalog(page, ["Ann"])
    await page.context.close()


async def test_every_word_changes_with_the_language_and_the_match_goes_on(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    missing: list[str] = []  # a key a catalog lacks is said on the console (messages.ts)
    page.on("console", lambda m: missing.append(m.text) if m.text.startswith("i18n:") else None)
    await use_test_language(page)
    assert await html(page) == {"lang": TEST_LANGUAGE, "dir": "rtl"}
    await assert_all_from_catalog(page, [])
    await page.select_option("#language", "en")  # English again, to sign in
    await sign_in(page, "Ann")
    await use_test_language(page)
    await assert_all_from_catalog(page, ["Ann"])
    await screenshot(page, "languages-lobby-test-language")

    await page.select_option("#language", "en")
    await page.click("#spit-computer")
    await page.wait_for_selector(".spit-table")
    await page.evaluate("window.__notReloaded = true")
    await click_if_shown(page, "#ready")
    await page.wait_for_function(
        "() => window.__pf.last()?.update?.view?.kind?.value?.mustPress?.length === 0"
    )
    before: dict[str, Any] | None = await last_update(page)
    assert before is not None
    await use_test_language(page)
    await assert_all_from_catalog(page, await players(page))
    directions = await page.evaluate(
        """() => ['.stock-row', '.spit-table .centre', '.card', '.notices', '.controls']
            .map(sel => getComputedStyle(document.querySelector(sel)).direction)"""
    )
    assert directions == ["ltr", "ltr", "ltr", "rtl", "rtl"]
    await screenshot(page, "languages-spit-test-language")
    # The same match, still followed on its socket, on the same page.
    assert await page.evaluate("window.__notReloaded") is True
    after = await newer_update(page, before["seq"])
    assert after["matchId"] == before["matchId"]

    # Back to English from the menu: the words read as before.
    await page.select_option("#language", "en")
    assert await html(page) == {"lang": "en", "dir": "ltr"}
    assert await page.inner_text(".spit-table .rules-help summary") == "Rules help"
    assert await page.inner_text("#resign") == "Resign"
    await resign(page)
    await page.wait_for_selector(".end-panel")
    await use_test_language(page)
    await assert_all_from_catalog(page, await players(page))
    await page.click("#leave")
    await page.wait_for_selector(".lobby")

    await page.select_option("#language", "en")
    await page.click("#bid-computer")
    await page.wait_for_selector(".bid-table")
    await click_if_shown(page, "#ready")
    await page.wait_for_selector(".hand-tile")
    await use_test_language(page)
    await assert_all_from_catalog(page, await players(page))
    assert (
        await page.evaluate("getComputedStyle(document.querySelector('.tiles')).direction") == "ltr"
    )
    await screenshot(page, "languages-bid-test-language")
    await page.select_option("#language", "en")
    assert await page.inner_text(".bid-table .rules-help summary") == (
        "Rules help (the clock keeps running)"
    )
    assert not missing, missing
    await page.context.close()
