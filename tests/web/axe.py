"""Accessibility checked, not hoped: axe-core (from axe-playwright-python) run on a page."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Page

# What a player cannot get past: missing names, unreadable contrast, controls out of reach.
BLOCKING = frozenset({"serious", "critical"})


async def assert_accessible(page: Page, within: str | None = None) -> None:
    """Run axe on the page (or on the part `within` selects) and fail on any serious or
    critical violation, naming each rule and the elements that break it."""
    results = await Axe().run(page, context=within)
    blocking = [v for v in results.response["violations"] if v["impact"] in BLOCKING]
    assert not blocking, "\n".join(describe(violation) for violation in blocking)


def describe(violation: dict[str, Any]) -> str:
    """One violation as a line per element: rule, impact, help, target."""
    head = f"{violation['id']} ({violation['impact']}): {violation['help']}"
    return "\n".join(f"{head}: {', '.join(node['target'])}" for node in violation["nodes"])
