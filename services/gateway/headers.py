"""The headers every answer of the gateway carries: what a page may load and where it may be
framed (Content-Security-Policy), no type sniffing, no referrer, and no server version.

The page and its files come from this origin alone, so the policy allows 'self' and
nothing else. The pages the gateway writes itself (/ops, the placeholder) keep their script
and style inline; each inline block is allowed by its sha256, not by 'unsafe-inline'.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web

_INLINE = re.compile(r"<(script|style)>(.*?)</\1>", re.DOTALL)
SERVER = "photofinish"  # aiohttp would name itself and Python, with their versions


def inline_hashes(documents: Iterable[str]) -> dict[str, list[str]]:
    """Return the CSP source of each inline ``<script>`` and ``<style>`` block, by kind."""
    found: dict[str, list[str]] = {"script": [], "style": []}
    for document in documents:
        for kind, body in _INLINE.findall(document):
            digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
            found[kind].append(f"'sha256-{digest}'")
    return found


def content_security_policy(documents: Iterable[str] = ()) -> str:
    """Return the policy: this origin only, the inline blocks of ``documents`` by hash."""
    inline = inline_hashes(documents)
    directives = {
        "default-src": ["'self'"],
        "script-src": ["'self'", *inline["script"]],
        "style-src": ["'self'", *inline["style"]],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],  # gRPC-web and the play socket, on this origin
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def security_headers(
    documents: Iterable[str] = (),
) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    """Return an ``on_response_prepare`` hook that sets the headers on every answer."""
    headers = {
        "Content-Security-Policy": content_security_policy(documents),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Server": SERVER,
    }

    async def set_headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(headers)

    return set_headers
