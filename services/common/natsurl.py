"""What a NATS URL list says: its servers, and the user and password it carries."""

from __future__ import annotations

from urllib.parse import ParseResult, unquote, urlparse


def servers_of(url: str) -> list[tuple[str, int]]:
    """Return the (host, port) of every server a NATS URL list names ("nats://a:4222,b")."""
    return [(p.hostname or "127.0.0.1", p.port or 4222) for p in _parsed(url)]


def credentials_of(url: str) -> tuple[str, str]:
    """Return the user and password a NATS URL carries ("nats://user:pass@host"), or ''."""
    first = _parsed(url)[0]
    return unquote(first.username or ""), unquote(first.password or "")


def _parsed(url: str) -> list[ParseResult]:
    return [
        urlparse(part.strip() if "://" in part else f"nats://{part.strip()}")
        for part in url.split(",")
    ]
