"""Which headers reach the backend, deadlines from grpc-timeout, and what comes back."""

from __future__ import annotations

import pytest

from services.gateway.grpcweb.metadata import (
    HeaderPolicy,
    forwarded,
    from_backend,
    parse_timeout,
)
from wire.grpcweb.errors import MalformedRequest, Reason

POLICY = HeaderPolicy(reserved=frozenset({"x-pf-player"}))


def test_authorization_and_x_pf_headers_are_forwarded_and_nothing_else() -> None:
    headers = {
        "Authorization": "Bearer t",
        "X-PF-Client-Seq": "7",
        "Cookie": "session=1",
        "X-User-Agent": "grpc-web-javascript/0.1",
        "Content-Type": "application/grpc-web+proto",
    }
    assert forwarded(headers, POLICY, ()) == (
        ("authorization", "Bearer t"),
        ("x-pf-client-seq", "7"),
    )


def test_reserved_headers_from_the_client_never_pass() -> None:
    assert forwarded({"x-pf-player": "someone-else"}, POLICY, ()) == ()


def test_the_gateways_own_metadata_replaces_the_clients() -> None:
    own = (("x-pf-received-ns", "123"),)
    assert forwarded({"x-pf-received-ns": "1"}, POLICY, own) == own


def test_binary_headers_are_base64_decoded_padded_or_not() -> None:
    assert forwarded({"x-pf-token-bin": "CAo"}, POLICY, ()) == (("x-pf-token-bin", b"\x08\n"),)
    assert forwarded({"x-pf-token-bin": "CAo="}, POLICY, ()) == (("x-pf-token-bin", b"\x08\n"),)


@pytest.mark.parametrize(
    "headers", [{"x-pf-token-bin": "not base64!"}, {"x-pf-name": "Zoë"}, {"x-pf-a b": "1"}]
)
def test_headers_metadata_cannot_carry_are_refused(headers: dict[str, str]) -> None:
    with pytest.raises(MalformedRequest) as err:
        forwarded(headers, POLICY, ())
    assert err.value.reason is Reason.BAD_HEADER


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(None, None), ("1S", 1.0), ("250m", 0.25), ("2M", 120.0), ("1H", 3600.0), ("5000u", 0.005)],
)
def test_grpc_timeout_is_read_as_seconds(value: str | None, seconds: float | None) -> None:
    assert parse_timeout(value) == pytest.approx(seconds)


@pytest.mark.parametrize("value", ["", "1", "S", "1.5S", "123456789S", "10s", "-1S"])
def test_bad_grpc_timeout_is_refused(value: str) -> None:
    with pytest.raises(MalformedRequest) as err:
        parse_timeout(value)
    assert err.value.reason is Reason.BAD_TIMEOUT


def test_backend_metadata_loses_names_the_gateway_and_http_own() -> None:
    pairs: list[tuple[str, str | bytes]] = [
        ("content-type", "application/grpc"),
        ("grpc-status", "0"),
        ("grpc-status-details-bin", b"\x01"),
        ("access-control-allow-origin", "*"),
        ("x-pf-reason", "late"),
    ]
    assert from_backend(pairs) == (("grpc-status-details-bin", b"\x01"), ("x-pf-reason", "late"))
    assert from_backend(None) == ()
