"""Installable on a phone: the manifest and its icons, the service worker that keeps the app
shell (and no game data) for offline use, and files named by content hash so a deploy never
leaves a phone on a stale script."""

from __future__ import annotations

import re
import struct
from typing import Any

import pytest
from playwright.async_api import Page

from tests.web.browser import new_page, screenshot, sign_in
from tests.web.conftest import Arena

pytestmark = pytest.mark.asyncio(loop_scope="module")

IMMUTABLE = "public, max-age=31536000, immutable"
HASHED = re.compile(r"^/(app|style)\.[A-Z2-7]{8}\.(js|css)$")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


async def get(page: Page, path: str) -> tuple[int, dict[str, str], bytes]:
    response = await page.request.get(page.url.rstrip("/") + path)
    return response.status, response.headers, await response.body()


async def test_the_page_names_its_files_by_content_hash_and_each_is_cached_as_it_should(
    arena: Arena,
) -> None:
    page = await new_page(arena.browser, arena.url)
    status, headers, body = await get(page, "/")
    assert status == 200 and headers["cache-control"] == "no-cache"
    html = body.decode()
    assets = re.findall(r'(?:src|href)="(/[^"]+)"', html)
    script_and_style = [path for path in assets if HASHED.match(path)]
    assert {path.rsplit(".", 1)[1] for path in script_and_style} == {"js", "css"}, assets
    for path in script_and_style:
        status, headers, _ = await get(page, path)
        assert status == 200 and headers["cache-control"] == IMMUTABLE, path
    for path in ("/sw.js", "/manifest.webmanifest"):
        status, headers, _ = await get(page, path)
        assert status == 200 and headers["cache-control"] == "no-cache", path
    # The old unhashed names are gone: nothing can serve a stale script under them.
    assert (await get(page, "/app.js"))[0] == 404
    await page.context.close()


async def test_the_manifest_names_the_app_and_its_maskable_icons(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    href = await page.get_attribute("link[rel=manifest]", "href")
    assert href == "/manifest.webmanifest"
    status, headers, body = await get(page, href)
    assert headers["content-type"].startswith("application/manifest+json")
    manifest: dict[str, Any] = await page.evaluate("text => JSON.parse(text)", body.decode())
    assert manifest["name"] == "Photo Finish" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "maskable"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        status, headers, png = await get(page, icon["src"])
        assert status == 200 and headers["cache-control"] == IMMUTABLE
        assert png.startswith(PNG_SIGNATURE)
        width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk's first fields
        assert f"{width}x{height}" == icon["sizes"]
    await page.context.close()


async def test_the_shell_opens_offline_and_the_worker_kept_no_game_data(arena: Arena) -> None:
    page = await new_page(arena.browser, arena.url)
    await page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    await page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    await sign_in(page, "Offline")  # gRPC-web calls, and the lobby's refreshes, go past it
    await page.wait_for_selector(".ladder")
    kept: list[str] = await page.evaluate(
        """async () => {
            const urls = [];
            for (const key of await caches.keys()) {
                const cache = await caches.open(key);
                for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
            }
            return urls;
        }"""
    )
    worker = (await get(page, "/sw.js"))[2].decode()
    shell = re.search(r"const SHELL = (\[.*\]);", worker)
    assert shell is not None
    assert sorted(kept) == sorted(await page.evaluate(f"() => {shell.group(1)}"))
    assert not [path for path in kept if "photofinish." in path or path == "/play"]

    await page.context.set_offline(True)
    response = await page.reload()
    assert response is not None and response.from_service_worker
    await page.wait_for_selector("#app-title")
    await page.wait_for_selector(".lobby")  # the kept script ran: the stored session's lobby
    await screenshot(page, "pwa-offline-lobby")
    await page.context.set_offline(False)
    await page.context.close()
