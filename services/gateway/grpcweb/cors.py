"""CORS for gRPC-web: preflight answers and the headers a browser needs to read a response."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# What gRPC-web clients send (connect-web and grpc-web both) and what they must read back.
BASE_ALLOW_HEADERS = ("content-type", "x-grpc-web", "x-user-agent", "grpc-timeout", "authorization")
BASE_EXPOSE_HEADERS = ("grpc-status", "grpc-message", "grpc-status-details-bin")


@dataclass(frozen=True, slots=True)
class CorsPolicy:
    """Which origins may call, and which extra headers they may send and read.

    `origins=None` lets any origin call and answers "*": the API carries its token in the
    Authorization header, never in cookies, so credentialed CORS is not needed.
    """

    origins: frozenset[str] | None = None
    allow_headers: tuple[str, ...] = ()
    expose_headers: tuple[str, ...] = ()
    max_age_s: int = 600

    def allows(self, origin: str) -> bool:
        """Returns whether a page from `origin` may call the API."""
        return self.origins is None or origin in self.origins


def response_headers(policy: CorsPolicy, origin: str | None) -> dict[str, str]:
    """Returns the CORS headers for an actual response; none for a same-origin request."""
    if origin is None:
        return {}
    if not policy.allows(origin):
        return {"Vary": "Origin"}
    return _origin_headers(policy, origin) | {
        "Access-Control-Expose-Headers": ", ".join(
            dict.fromkeys((*BASE_EXPOSE_HEADERS, *policy.expose_headers))
        )
    }


def preflight_headers(
    policy: CorsPolicy, origin: str, requested: str | None, forwards: Callable[[str], bool]
) -> dict[str, str] | None:
    """Returns the headers answering a preflight, or None when the origin is not allowed.

    Requested headers the gateway forwards as metadata (say "x-pf-client-seq") are allowed
    on top of the fixed list, since a prefix cannot be written in Access-Control-Allow-Headers.
    """
    if not policy.allows(origin):
        return None
    asked = (name.strip().lower() for name in (requested or "").split(","))
    allowed = dict.fromkeys(
        (*BASE_ALLOW_HEADERS, *policy.allow_headers, *(n for n in asked if n and forwards(n)))
    )
    return _origin_headers(policy, origin) | {
        "Access-Control-Allow-Methods": "POST, OPTIONS",
        "Access-Control-Allow-Headers": ", ".join(allowed),
        "Access-Control-Max-Age": str(policy.max_age_s),
    }


def _origin_headers(policy: CorsPolicy, origin: str) -> dict[str, str]:
    if policy.origins is None:
        return {"Access-Control-Allow-Origin": "*"}
    return {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
