"""Guest tokens: what they name, every way a bad one is refused, and the gateway's check."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import make_mocked_request
from hypothesis import given
from hypothesis import strategies as st

from services.common.identity import PLAYER_ID
from services.gateway.auth import TokenCheck, identity_hook
from services.gateway.grpcweb import RequestRefused
from services.gateway.routing import public_routes
from services.gateway.tokens import InvalidToken, clean_name, issue, verify

KEY = b"k" * 32


def test_a_token_names_its_player_until_it_expires() -> None:
    token, identity = issue(KEY, "  Ada   L ", now_s=1000, ttl_s=60)
    assert identity.name == "Ada L"
    assert verify(KEY, token, now_s=1059) == identity
    with pytest.raises(InvalidToken, match="expired"):
        verify(KEY, token, now_s=1060)


def test_a_token_signed_with_another_key_is_refused() -> None:
    token, _ = issue(b"other" * 8, "Eve", now_s=0)
    with pytest.raises(InvalidToken, match="signature"):
        verify(KEY, token, now_s=1)


def test_a_token_whose_payload_was_edited_is_refused() -> None:
    token, _ = issue(KEY, "Eve", now_s=0)
    payload, signature = token.split(".")
    forged = payload[:-2] + ("A" if payload[-2] != "A" else "B") + payload[-1]
    with pytest.raises(InvalidToken):
        verify(KEY, f"{forged}.{signature}", now_s=1)


def _respellings(token: str) -> list[str]:
    """Other strings that a lenient base64 decoder reads as the same token."""
    payload, signature = token.split(".")
    standard = payload.replace("-", "+").replace("_", "/")
    return [
        f"{payload}=.{signature}",  # padding
        f"{payload}==.{signature}",
        f"{payload[:3]}!{payload[3:]}.{signature}",  # a junk character
        f"{payload} .{signature}",
        f"{payload}.{signature[:5]}\n{signature[5:]}",
        f"{standard}.{signature.replace('-', '+').replace('_', '/')}",  # the standard alphabet
        f"{payload}.{signature[:-1]}{_with_low_bit_flipped(signature[-1])}",  # stray bits
    ]


BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _with_low_bit_flipped(last: str) -> str:
    """The last character of a 32-byte signature carries 2 unused low bits: flip one, and a
    lenient decoder reads the same bytes."""
    return BASE64URL[BASE64URL.index(last) ^ 1]


def test_a_token_is_accepted_only_as_it_was_spelled() -> None:
    # A name that makes the payload's base64 hold both "-" and "_".
    token, identity = issue(KEY, "Ann~~>>??~~", now_s=0)
    assert "-" in token or "_" in token
    assert verify(KEY, token, now_s=1) == identity
    for respelled in _respellings(token):
        if respelled == token:
            continue
        with pytest.raises(InvalidToken, match=r"payload\.signature"):
            verify(KEY, respelled, now_s=1)


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "bell\x07"])
def test_unusable_display_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="display name"):
        clean_name(name)


@given(st.text(max_size=200))
def test_garbage_is_never_a_token(text: str) -> None:
    with pytest.raises(InvalidToken):
        verify(KEY, text, now_s=0)


async def test_the_gateway_remembers_a_checked_token_but_not_past_its_expiry() -> None:
    now = [1000.0]
    hook = identity_hook(TokenCheck(KEY, clock=lambda: now[0]))
    route = public_routes()["/photofinish.client.v1.Arena/Submit"]
    token, identity = issue(KEY, "Ada", now_s=1000, ttl_s=60)
    request = make_mocked_request("POST", "/", headers={"authorization": f"Bearer {token}"})
    for _ in range(2):  # checked, then remembered: the same player either way
        assert (PLAYER_ID, identity.player_id) in await hook(request, route)
    now[0] = 1060.0
    with pytest.raises(RequestRefused, match="expired"):
        await hook(request, route)
    forged = make_mocked_request("POST", "/", headers={"authorization": f"Bearer {token}x"})
    with pytest.raises(RequestRefused):
        await hook(forged, route)
