"""How long a browser may keep each file of the built client: a hashed name for good, the rest
(the page, the manifest, the service worker) checked again on every use, so a deploy never
leaves a phone on a stale script."""

from __future__ import annotations

import re

from aiohttp import web

# clients/web/scripts/bundle.mjs names each bundle and icon <stem>.<8 of A-Z, 2-7>.<ext>: a
# new build of different content has a new name, so the old one may be kept forever.
HASHED_NAME = re.compile(r"\.[A-Z2-7]{8}\.[a-z]+(?:\.map)?$")
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def cache_control(path: str) -> str:
    """Return the Cache-Control a client file at `path` is served with."""
    return IMMUTABLE if HASHED_NAME.search(path) else REVALIDATE


async def set_cache_control(request: web.Request, response: web.StreamResponse) -> None:
    """Mark a client file's response (the page or a static file) with its Cache-Control;
    other responses (gRPC-web, probes, metrics) are left as their handlers made them."""
    if isinstance(response, web.FileResponse):
        response.headers["Cache-Control"] = cache_control(request.path)
