"""CORS answers: preflights and the headers on actual responses."""

from __future__ import annotations

from services.gateway.grpcweb.cors import CorsPolicy, preflight_headers, response_headers
from services.gateway.grpcweb.metadata import HeaderPolicy

FORWARDS = HeaderPolicy().forwards
SITE = "https://photofinish.example"


def test_any_origin_is_answered_with_a_star_and_the_grpc_headers_are_exposed() -> None:
    headers = response_headers(CorsPolicy(), SITE)
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert headers["Access-Control-Expose-Headers"] == (
        "grpc-status, grpc-message, grpc-status-details-bin"
    )


def test_same_origin_requests_get_no_cors_headers() -> None:
    assert response_headers(CorsPolicy(), None) == {}


def test_listed_origin_is_echoed_and_varies() -> None:
    headers = response_headers(CorsPolicy(origins=frozenset({SITE})), SITE)
    assert headers["Access-Control-Allow-Origin"] == SITE
    assert headers["Vary"] == "Origin"


def test_unlisted_origin_is_not_allowed() -> None:
    policy = CorsPolicy(origins=frozenset({SITE}))
    assert "Access-Control-Allow-Origin" not in response_headers(policy, "https://evil.example")
    assert preflight_headers(policy, "https://evil.example", None, FORWARDS) is None


def test_preflight_allows_grpc_web_headers_and_requested_forwarded_ones() -> None:
    headers = preflight_headers(CorsPolicy(), SITE, "X-PF-Client-Seq, Cookie, x-grpc-web", FORWARDS)
    assert headers is not None
    allowed = headers["Access-Control-Allow-Headers"].split(", ")
    assert allowed[:5] == [
        "content-type",
        "x-grpc-web",
        "x-user-agent",
        "grpc-timeout",
        "authorization",
    ]
    assert "x-pf-client-seq" in allowed
    assert "cookie" not in allowed
    assert headers["Access-Control-Allow-Methods"] == "POST, OPTIONS"
