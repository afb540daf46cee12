"""Cache-Control of the built client's files: hashed names kept for good, the rest revalidated."""

from __future__ import annotations

import pytest

from services.gateway.webapp import IMMUTABLE, REVALIDATE, cache_control


@pytest.mark.parametrize(
    "path",
    ["/app.UXGWTXFI.js", "/style.A4BBFA6L.css", "/icon-192.I6LG7KE4.png", "/app.UXGWTXFI.js.map"],
)
def test_a_name_with_a_content_hash_is_kept_for_good(path: str) -> None:
    assert cache_control(path) == IMMUTABLE


@pytest.mark.parametrize(
    "path", ["/", "/index.html", "/sw.js", "/manifest.webmanifest", "/app.js", "/app.ux1wtxfi.js"]
)
def test_the_page_the_worker_and_unhashed_names_are_checked_on_every_use(path: str) -> None:
    assert cache_control(path) == REVALIDATE
