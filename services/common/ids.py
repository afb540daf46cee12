"""Random ids that read well wherever they are pasted: URLs, logs, command lines."""

from __future__ import annotations

import secrets


def fresh_id(nbytes: int) -> str:
    """Return ``nbytes`` random bytes as url-safe text that does not begin with ``-``.

    One id in 64 would otherwise begin with ``-``, and a command line takes it for an
    option (``python -m tools.replay -x3f…`` fails).
    """
    while True:
        text = secrets.token_urlsafe(nbytes)
        if not text.startswith("-"):
            return text
