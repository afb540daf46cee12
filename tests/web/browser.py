"""What the browser tests share: Debian's Chromium driven by Playwright, the stack, screenshots."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from playwright.async_api import (
    Browser,
    Dialog,
    HttpCredentials,
    Page,
    ViewportSize,
    async_playwright,
)

from clients.arena import unique_username

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
WAIT_MS = 20_000
PHONE = ViewportSize(width=390, height=844)
DESKTOP = ViewportSize(width=1100, height=900)
PASSWORD = "plover-harbour-quince"  # the accounts the tests sign up in a page
ENGLISH = json.loads(
    (Path(__file__).resolve().parents[2] / "clients/web/src/i18n/catalogs/en.json").read_text()
)


def english(key: str) -> str:
    """The page's English words for ``key``, a message with no placeholder."""
    return ENGLISH[key]  # type: ignore[no-any-return]


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


async def new_page(
    browser: Browser,
    url: str,
    phone: bool = False,
    motion: bool = False,
    credentials: HttpCredentials | None = None,
) -> Page:
    """A page in a fresh context (its own storage: another person) at the arena.

    Its player asks for reduced motion unless ``motion``: nothing glides, so a click finds
    its button where it stays and a screenshot shows every card where it lies. Given
    ``credentials``, it answers an HTTP sign-in (the operator's, for /ops) with them.
    """
    context = await browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        reduced_motion="no-preference" if motion else "reduce",
        http_credentials=credentials,
    )
    page = await context.new_page()
    page.set_default_timeout(WAIT_MS)
    await page.goto(url)
    return page


async def sign_in(page: Page, name: str) -> None:
    await page.fill("#name", name)
    await page.click("#sign-in")
    await page.wait_for_selector(".lobby")


async def sign_up_new(page: Page, label: str) -> str:
    """Sign up a new account from the sign-in screen (rated play is for accounts), a unique
    username made from ``label`` ("Ann" becomes "Ann_3fa9c"); return the username."""
    username = unique_username(label)
    await page.fill("#new-name", username)
    await page.fill("#new-password", PASSWORD)
    await page.click("#sign-up")
    await page.wait_for_selector(".lobby")
    return username


async def sign_in_account(page: Page, username: str, password: str = PASSWORD) -> None:
    """Sign in to an account from the sign-in screen, as far as the lobby."""
    await page.fill("#account-name", username)
    await page.fill("#account-password", password)
    await page.click("#account-sign-in")
    await page.wait_for_selector(".lobby")


async def resign(page: Page) -> None:
    """Press Resign and confirm the browser's question."""

    async def accept(dialog: Dialog) -> None:
        await dialog.accept()

    page.once("dialog", accept)
    await page.click("#resign")


async def screenshot(page: Page, name: str) -> Path:
    """Save the whole page as var/screenshots/<name>.png (looked at after a run)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{re.sub(r'[^a-z0-9-]+', '-', name.lower())}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


async def last_update(page: Page) -> dict[str, Any] | None:
    """The page's latest MatchUpdate as plain data (enums as numbers, 64-bit ints as text)."""
    result: dict[str, Any] | None = await page.evaluate(
        """() => {
            const last = window.__pf.last();
            if (!last || !last.update) return null;
            const plain = (k, v) => typeof v === 'bigint' ? v.toString() : v;
            return JSON.parse(JSON.stringify(last.update, plain));
        }"""
    )
    return result


# Looked for and acted on in one turn of the page's own event loop: nothing can change between.
_TAKE_IF_SHOWN = """([selector, act]) => {
    const element = document.querySelector(selector);
    if (!element || element.disabled) return false;
    if (act === 'click') element.click(); else element.focus();
    return true;
}"""


async def click_if_shown(page: Page, selector: str) -> bool:
    """Click ``selector`` if the page shows it, enabled, now; return whether it did.

    A match moves under the test (the computer presses Ready, the server spits): a button
    seen a moment ago may be gone, and Playwright's click would wait for it and fail. Here
    it is looked for and clicked in one go, so a button gone first is simply no click.
    """
    clicked: bool = await page.evaluate(_TAKE_IF_SHOWN, [selector, "click"])
    return clicked


# As above, and only if a click at the element's centre would reach it: a panel drawn over
# it (a round's end over the piles) takes the click, as it would a person's. The element is
# scrolled into view first, as a person would scroll to it. The first of the selectors the
# page shows is the one; with a sequence number, only while the page still shows that
# update. Returns the clicked element's tile key, or its selector, or null for no click.
_CLICK_IF_REACHABLE = """([selectors, seq]) => {
    if (seq !== null) {
        const last = window.__pf.last();
        if (!last || !last.update || last.update.seq.toString() !== seq) return null;
    }
    for (const selector of selectors) {
        const element = document.querySelector(selector);
        if (!element || element.disabled) continue;
        element.scrollIntoView({block: "nearest", inline: "nearest"});
        const box = element.getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        if (!hit || !element.contains(hit)) return null;
        hit.click();
        return element.dataset.tile ?? selector;
    }
    return null;
}"""


async def click_first_reachable(
    page: Page, selectors: tuple[str, ...], seq: str | None = None
) -> str | None:
    """Click the first of ``selectors`` the page shows, if nothing covers it, now (and, given
    ``seq``, only while the page still shows that update); return the clicked element's
    tile key or its selector, or None for no click."""
    clicked: str | None = await page.evaluate(_CLICK_IF_REACHABLE, [list(selectors), seq])
    return clicked


async def click_if_reachable(page: Page, selector: str) -> bool:
    """Click ``selector`` if the page shows it and nothing covers it, now; return whether it did.

    Like ``click_if_shown``, for a target that the match can cover under the test between a
    look and a click (Playwright's click would wait for the cover to go, and fail).
    """
    return await click_first_reachable(page, (selector,)) is not None


async def focus_if_shown(page: Page, selector: str) -> bool:
    """Focus ``selector`` if the page shows it, enabled, now (as ``click_if_shown``)."""
    focused: bool = await page.evaluate(_TAKE_IF_SHOWN, [selector, "focus"])
    return focused
