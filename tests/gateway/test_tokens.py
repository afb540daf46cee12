"""Guest tokens: what they name, every way a bad one is refused, and the gateway's check."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from aiohttp.test_utils import make_mocked_request
from hypothesis import given
from hypothesis import strategies as st

from services.common.identity import PLAYER_ID
from services.gateway.auth import TokenCheck, identity_hook
from services.gateway.grpcweb import RequestRefused
from services.gateway.routing import public_routes
from services.gateway.tokens import (
    ACCESS_TTL_S,
    InvalidToken,
    KeyRing,
    _b64,
    clean_name,
    issue,
    issue_access,
    verify,
)

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


A = KeyRing((("a", b"a" * 32),))
B = KeyRing((("b", b"b" * 32),))
A_THEN_B = KeyRing((("a", b"a" * 32), ("b", b"b" * 32)))
B_THEN_A = KeyRing((("b", b"b" * 32), ("a", b"a" * 32)))


def test_a_new_key_comes_in_and_the_old_one_goes_without_signing_anyone_out() -> None:
    """Add B second, then move it first, then drop A once A's tokens have expired."""
    old, _ = issue(A, "Ada", now_s=0)
    assert verify(A_THEN_B, old, now_s=1).name == "Ada"  # B added: A still signs
    assert verify(A, issue(A_THEN_B, "Bo", now_s=0)[0], now_s=1).name == "Bo"
    new, _ = issue(B_THEN_A, "Cy", now_s=0)  # B moved first: B signs, A still checks
    assert verify(B, new, now_s=1).name == "Cy"
    assert verify(B_THEN_A, old, now_s=1).name == "Ada"
    with pytest.raises(InvalidToken):
        verify(B, old, now_s=1)  # A dropped: its tokens are refused


def test_a_token_from_before_key_ids_is_checked_with_key_0() -> None:
    payload = b'{"p":"g_x","n":"Old","e":100}'
    signature = hmac.new(KEY, payload, hashlib.sha256).digest()
    token = f"{_b64(payload)}.{_b64(signature)}"
    assert verify(KeyRing((("new", b"n" * 32), ("0", KEY))), token, now_s=1).name == "Old"
    with pytest.raises(InvalidToken):
        verify(KeyRing((("new", b"n" * 32),)), token, now_s=1)


def test_a_token_naming_an_unknown_key_is_refused_like_a_forged_one() -> None:
    token, _ = issue(KeyRing((("zz", KEY),)), "Eve", now_s=0)
    with pytest.raises(InvalidToken, match="signature"):
        verify(KeyRing((("0", KEY),)), token, now_s=1)


@pytest.mark.parametrize("text", ["", "nokey", ":secret", "a:", "bad id:x", "a" * 17 + ":x"])
def test_a_malformed_key_ring_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        KeyRing.parse(text)


def test_an_access_token_names_its_session_and_a_guest_s_none() -> None:
    token, identity = issue_access(A, "a_1", "Ann", "s_1", now_s=0)
    assert verify(A, token, now_s=1) == identity
    assert (identity.session_id, identity.expires_at) == ("s_1", ACCESS_TTL_S)
    assert verify(A, issue(A, "Bo", now_s=0)[0], now_s=1).session_id == ""


@given(st.integers(min_value=0, max_value=200), st.integers(min_value=0, max_value=255))
def test_any_changed_byte_is_refused(position: int, value: int) -> None:
    token, _ = issue_access(A, "a_1", "Ann", "s_1", now_s=0)
    raw = bytearray(token.encode())
    index = position % len(raw)
    if raw[index] == value:
        return
    raw[index] = value
    with pytest.raises((InvalidToken, UnicodeDecodeError)):
        verify(A, raw.decode(), now_s=1)


def test_a_signed_out_session_s_tokens_are_refused_even_when_remembered() -> None:
    now = [1000.0]
    check = TokenCheck(A, clock=lambda: now[0])
    mine, _ = issue_access(A, "a_1", "Ann", "s_1", now_s=1000)
    other, _ = issue_access(A, "a_1", "Ann", "s_2", now_s=1000)
    assert check.identity(mine).session_id == "s_1"  # checked and remembered
    check.end_session("s_1", until_s=1000 + ACCESS_TTL_S)
    with pytest.raises(InvalidToken, match="signed out"):
        check.identity(mine)
    assert check.identity(other).session_id == "s_2"
    now[0] = 1000.0 + ACCESS_TTL_S + 1  # past the ending: forgotten, and expired anyway
    check.end_session("s_3", until_s=now[0] + 1)
    assert "s_1" not in check._ended
