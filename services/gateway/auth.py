"""Who is calling: the bearer token checked once, at the edge, for every method but those
that sign in (SignIn, SignInAccount, RefreshSession; SignUp takes a guest's if sent)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from urllib.parse import quote

from aiohttp import web

from services.common.identity import (
    CLIENT_ADDRESS,
    OPERATOR,
    PLAYER_ID,
    PLAYER_NAME,
    RECEIVED_NS,
    ROLE,
    SESSION_ID,
)
from services.gateway.grpcweb import MetadataHook, RequestRefused, Route
from services.gateway.routing import NO_TOKEN, TOKEN_IF_SENT
from services.gateway.tokens import Identity, InvalidToken, Keys, verify
from wire.grpcweb.metadata import Metadata
from wire.grpcweb.status import Code, refused

KNOWN_TOKENS = 100_000  # checks remembered (see TokenCheck)


class TokenCheck:
    """Checks bearer tokens, each once: a player sends the same one with every command.

    The check (base64, HMAC, JSON) is remembered for up to ``KNOWN_TOKENS`` tokens, then
    all are forgotten at once and checked again as they come. An ended session's tokens are
    refused from the moment this gateway hears of it, remembered or not.
    """

    def __init__(self, keys: Keys, clock: Callable[[], float] = time.time) -> None:
        self._keys = keys
        self._clock = clock
        self._known: dict[str, Identity] = {}
        self._ended: dict[str, float] = {}  # session id -> until when (unix s)

    def identity(self, token: str) -> Identity:
        """Return who ``token`` names.

        Raises:
            InvalidToken: a token that is malformed, forged or expired, or whose session
                was signed out.
        """
        now_s = int(self._clock())
        identity = self._known.get(token)
        if identity is None:
            identity = verify(self._keys, token, now_s)
            if len(self._known) >= KNOWN_TOKENS:
                self._known.clear()
            self._known[token] = identity
        elif identity.expires_at <= now_s:  # the same rule as verify's
            raise InvalidToken("the token has expired; sign in again")
        # After the cache, so a remembered token of an ended session is refused too.
        if identity.session_id and now_s < self._ended.get(identity.session_id, 0.0):
            raise InvalidToken("the session was signed out")
        return identity

    def end_session(self, session_id: str, until_s: float) -> None:
        """Refuse ``session_id``'s tokens until ``until_s``, when the last has expired.

        The sessions whose ``until_s`` has passed are forgotten here, so the ended ones
        take room only while their tokens could still be shown.
        """
        now_s = self._clock()
        for ended, until in list(self._ended.items()):
            if until <= now_s:
                del self._ended[ended]
        if session_id and until_s > now_s:
            self._ended[session_id] = max(until_s, self._ended.get(session_id, 0.0))

    def ended_sessions(self) -> int:
        """Return how many ended sessions this gateway still holds."""
        return len(self._ended)


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
        address = request.remote or ""
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        sent = scheme.lower() == "bearer" and bool(token)
        if route.target in NO_TOKEN or (route.target in TOKEN_IF_SENT and not sent):
            return ((RECEIVED_NS, received_ns), (CLIENT_ADDRESS, address))
        if not sent:
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
            (SESSION_ID, identity.session_id),
            (RECEIVED_NS, received_ns),
            (CLIENT_ADDRESS, address),
            *(((ROLE, OPERATOR),) if identity.operator else ()),
        )

    return hook
