"""The operator's credential for `/ops`: HTTP Basic, user ``operator``, one password.

Accounts with roles come later; until then one secret opens the ops page and the figures
it polls. It is given as ``PF_OPS_PASSWORD`` or as a file, ``PF_OPS_PASSWORD_FILE`` (a
mounted Secret; `make run` writes ``var/ops.password``). Without one the page is closed,
never open. A wrong password is a guess: an address that has made its minute's worth of
them is refused every try, the right password's included, until the bucket refills, so
a guesser learns nothing faster than the limit lets it (docs/security.md, "The edge").
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

from aiohttp import hdrs, web

from services.gateway.ratelimit import CommandRate

USER = "operator"
CHALLENGE = 'Basic realm="photofinish ops", charset="UTF-8"'
MIN_PASSWORD_CHARS = 16
FAILURES_PER_MINUTE = 10  # PF_OPS_FAILURES_PER_MINUTE, per client address
CLOSED = (
    "the ops page is closed: the gateway has no operator password"
    " (PF_OPS_PASSWORD or PF_OPS_PASSWORD_FILE)\n"
)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def password_from(env: Mapping[str, str]) -> str:
    """Return the operator password ``env`` gives (empty: none, the page stays closed).

    Raises:
        ValueError: when both variables are set, or the password is shorter than 16.
        OSError: when ``PF_OPS_PASSWORD_FILE`` cannot be read.
    """
    path, given = env.get("PF_OPS_PASSWORD_FILE", ""), env.get("PF_OPS_PASSWORD", "")
    if path and given:
        raise ValueError("set PF_OPS_PASSWORD or PF_OPS_PASSWORD_FILE, not both")
    password = Path(path).read_text().strip() if path else given
    if password and len(password) < MIN_PASSWORD_CHARS:
        raise ValueError(
            f"the operator password has {len(password)} characters;"
            f" it needs {MIN_PASSWORD_CHARS} at least (e.g. openssl rand -hex 24)"
        )
    return password


def is_operator(authorization: str, password: str) -> bool:
    """Return whether an ``Authorization`` header names the operator with ``password``."""
    scheme, _, encoded = authorization.partition(" ")
    if scheme.lower() != "basic" or not password:
        return False
    try:
        given = base64.b64decode(encoded.strip(), validate=True)
    except (binascii.Error, ValueError):
        return False
    # Digests of equal length, compared in constant time: neither the password nor its
    # length shows in how long a refusal takes.
    expected = hashlib.sha256(f"{USER}:{password}".encode()).digest()
    return hmac.compare_digest(hashlib.sha256(given).digest(), expected)


def failure_rate(per_minute: float = FAILURES_PER_MINUTE) -> CommandRate:
    """Return the buckets of wrong passwords by client address (a minute's worth at once)."""
    return CommandRate(per_minute / 60, per_minute, what="wrong operator passwords")


def operator_only(password: str, failures: CommandRate) -> Callable[[Handler], Handler]:
    """Return a decorator that lets only the operator through to a handler.

    No password configured: 503 saying so. An address out of guesses: 429 with
    ``Retry-After``, unchecked. No or a wrong credential: 401 with the Basic challenge,
    and a wrong one counts against its address.
    """

    def guard(handler: Handler) -> Handler:
        async def guarded(request: web.Request) -> web.StreamResponse:
            if not password:
                raise web.HTTPServiceUnavailable(text=CLOSED)
            address = request.remote or ""
            wait_ms = failures.wait_ms(address)
            if wait_ms:
                raise web.HTTPTooManyRequests(
                    text="too many wrong operator passwords from this address\n",
                    headers={hdrs.RETRY_AFTER: str(-(-wait_ms // 1000))},
                )
            authorization = request.headers.get(hdrs.AUTHORIZATION, "")
            if is_operator(authorization, password):
                return await handler(request)
            if authorization:
                failures.take(address)
            raise web.HTTPUnauthorized(
                text="the ops page is for the operator\n",
                headers={hdrs.WWW_AUTHENTICATE: CHALLENGE},
            )

        return guarded

    return guard
