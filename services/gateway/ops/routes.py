"""The gateway's `/ops` page and the `/ops/figures` JSON it polls, the operator's alone."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
from aiohttp import web

from services.gateway.ops.credential import operator_only
from services.gateway.ops.page import OPS_PAGE
from services.gateway.ops.scraper import Scraper
from services.gateway.ops.targets import MetricsTarget
from services.gateway.ratelimit import CommandRate

SCRAPER = web.AppKey("ops_scraper", Scraper)


def add_ops_routes(
    app: web.Application,
    targets: tuple[MetricsTarget, ...],
    password: str,
    failures: CommandRate,
) -> None:
    """Serve the ops page and its figures, read from ``targets`` and this process, to the
    operator alone (credential.py; no ``password``: to nobody)."""

    async def scraper(app: web.Application) -> AsyncIterator[None]:
        async with aiohttp.ClientSession() as session:
            app[SCRAPER] = Scraper(session, targets)
            yield

    app.cleanup_ctx.append(scraper)
    guard = operator_only(password, failures)
    app.router.add_get("/ops", guard(ops_page))
    app.router.add_get("/ops/figures", guard(ops_figures))


async def ops_page(request: web.Request) -> web.Response:
    """Return the self-contained ops page."""
    return web.Response(
        text=OPS_PAGE, content_type="text/html", headers={"Cache-Control": "no-store"}
    )


async def ops_figures(request: web.Request) -> web.Response:
    """Return the key figures of every service as JSON."""
    figures = await request.app[SCRAPER].figures()
    return web.json_response(figures, headers={"Cache-Control": "no-store"})
