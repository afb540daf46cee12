"""Who is calling: the bearer token checked once, at the edge, for every method but SignIn."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from urllib.parse import quote

from aiohttp import web

from services.common.identity import PLAYER_ID, PLAYER_NAME, RECEIVED_NS
from services.gateway.grpcweb import MetadataHook, RequestRefused, Route
from services.gateway.routing import SIGN_IN
from services.gateway.tokens import Identity, InvalidToken, verify
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, refused

KNOWN_TOKENS = 100_000  # checks remembered (see TokenCheck)

CLIENT_ADDRESS = "x-pf-client-address"  # who connected: for the per-address limits


class TokenCheck:
    """Checks bearer tokens, each once: a player sends the same one with every command.

    The check (base64, HMAC, JSON) is remembered for up to ``KNOWN_TOKENS`` tokens, then
    all are forgotten at once and checked again as they come.
    """

    def __init__(self, token_key: bytes, clock: Callable[[], float] = time.time) -> None:
        self._key = token_key
        self._clock = clock
        self._known: dict[str, Identity] = {}

    def identity(self, token: str) -> Identity:
        """Return who ``token`` names.

        Raises:
            InvalidToken: a token that is malformed, forged or expired.
        """
        now_s = int(self._clock())
        identity = self._known.get(token)
        if identity is None:
            identity = verify(self._key, token, now_s)
            if len(self._known) >= KNOWN_TOKENS:
                self._known.clear()
            self._known[token] = identity
        elif identity.expires_at <= now_s:  # the same rule as verify's
            raise InvalidToken("the token has expired; sign in again")
        return identity


def identity_hook(tokens: TokenCheck, inject_delay_s: float = 0.0) -> MetadataHook:
    """Return the hook that names the authenticated player to the backend.

    It also stamps the request's receipt, so the arbitration can measure the forwarding
    delay. ``inject_delay_s`` holds every request that long after the stamp: fault
    injection for the timing-fault tests, never set in production.
    """

    async def hook(request: web.Request, route: Route) -> Metadata:
        received_ns = str(time.monotonic_ns())
        if inject_delay_s:
            await asyncio.sleep(inject_delay_s)
        if route.target == SIGN_IN:
            return ((RECEIVED_NS, received_ns), (CLIENT_ADDRESS, request.remote or ""))
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise RequestRefused(
                refused(
                    Code.UNAUTHENTICATED,
                    "unauthenticated",
                    "sign in first: authorization: Bearer <token>",
                )
            )
        try:
            identity = tokens.identity(token.strip())
        except InvalidToken as error:
            raise RequestRefused(refused(Code.UNAUTHENTICATED, "bad_token", str(error))) from None
        return (
            (PLAYER_ID, identity.player_id),
            (PLAYER_NAME, quote(identity.name)),  # metadata is ASCII: names are UTF-8
            (RECEIVED_NS, received_ns),
            (CLIENT_ADDRESS, request.remote or ""),
        )

    return hook
