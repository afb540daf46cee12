"""Every answer carries the security headers, and the pages work under their policy: the
arena's page, a match on it, and the ops page (signed in as the operator), with no
Content-Security-Policy violation."""

from __future__ import annotations

import pytest
from playwright.async_api import ConsoleMessage, HttpCredentials, Page

from tests.waiting import poll_until
from tests.web.browser import new_page, resign, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")

PATHS = ("/", "/ops", "/sw.js", "/manifest.webmanifest", "/healthz", "/no-such-file")


def violations(page: Page) -> list[str]:
    """Collect what the page's console says about the policy, from now on."""
    said: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            said.append(message.text)

    page.on("console", note)
    return said


async def test_every_answer_carries_the_security_headers_and_no_version(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    for path in PATHS:
        response = await page.request.get(arena.url.rstrip("/") + path)
        headers = response.headers
        policy = headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy, path
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, path
        assert headers.get("x-content-type-options") == "nosniff", path
        assert headers.get("referrer-policy") == "no-referrer", path
        assert headers.get("server") == "photofinish", path  # no "aiohttp/3.x Python/3.x"
    await page.context.close()


async def test_the_page_a_match_and_the_ops_page_break_no_rule_of_the_policy(
    arena: Arena,
) -> None:
    operator = HttpCredentials(username="operator", password=arena.ops_password)
    page = await new_page(arena.browser, arena.url, credentials=operator)
    said = violations(page)
    await page.reload()
    await sign_in(page, "Cspella")
    await page.select_option("#spit-level", "1")
    await page.click("#spit-computer")
    await page.wait_for_selector(".spit-table")
    assert said == []
    await poll_until(
        "the service worker is registered",
        lambda: page.evaluate("() => navigator.serviceWorker.getRegistration().then(Boolean)"),
    )
    await resign(page)
    await page.goto(arena.url.rstrip("/") + "/ops")
    # The figures it polls came (behind the operator's sign-in too), not an error.
    await page.wait_for_function(
        "() => document.querySelector('#status')?.textContent.startsWith('updated ')"
    )
    assert said == []
    await page.context.close()
