"""Tokens: what they name, the key ring, every way a bad one is refused, and the gateway's
check (ended sessions included)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from aiohttp.test_utils import make_mocked_request
from hypothesis import given
from hypothesis import strategies as st

from services.common.identity import OPERATOR, PLAYER_ID, ROLE
from services.gateway.auth import TokenCheck, identity_hook
from services.gateway.grpcweb import RequestRefused
from services.gateway.routing import public_routes
from services.gateway.tokens import (
    ACCESS_TTL_S,
    TTL_S,
    InvalidToken,
    KeyRing,
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


def _fields(token: str) -> dict[str, object]:
    payload = token.split(".")[0]
    fields: dict[str, object] = json.loads(base64.urlsafe_b64decode(payload + "=" * 3))
    return fields


def test_a_token_names_the_key_that_signed_it() -> None:
    assert _fields(issue(B_THEN_A, "Ada", now_s=0)[0])["k"] == "b"
    assert _fields(issue(KEY, "Ada", now_s=0)[0])["k"] == "0"  # a bare key is key "0"


def test_a_new_key_comes_in_and_the_old_one_goes_without_signing_anyone_out() -> None:
    """Add B second, then move it first, then drop A once A's tokens have expired."""
    old, _ = issue(A, "Ada", now_s=0)
    assert verify(A_THEN_B, old, now_s=1).name == "Ada"  # B added: A still signs
    assert verify(A, issue(A_THEN_B, "Bo", now_s=0)[0], now_s=1).name == "Bo"
    new, _ = issue(B_THEN_A, "Cy", now_s=0)  # B moved first: B signs, A still checks
    assert verify(B, new, now_s=1).name == "Cy"
    assert verify(B_THEN_A, old, now_s=1).name == "Ada"
    with pytest.raises(InvalidToken, match="signature"):
        verify(B, old, now_s=1)  # A dropped: its tokens are refused


@given(st.binary(min_size=1, max_size=64), st.binary(min_size=1, max_size=64))
def test_a_token_verifies_only_with_the_key_that_signed_it(signer: bytes, other: bytes) -> None:
    token, identity = issue(KeyRing((("k1", signer),)), "Ada", now_s=0)
    assert verify(KeyRing((("k2", other), ("k1", signer))), token, now_s=1) == identity
    if other != signer:
        with pytest.raises(InvalidToken, match="signature"):
            verify(KeyRing((("k1", other),)), token, now_s=1)  # the same id, another key
    with pytest.raises(InvalidToken, match="signature"):
        verify(KeyRing((("k2", signer),)), token, now_s=1)  # the same key, another id


def _legacy(key: bytes, fields: str) -> str:
    """A token as issued before key ids: no "k"."""
    payload = fields.encode()
    signature = hmac.new(key, payload, hashlib.sha256).digest()
    b64 = base64.urlsafe_b64encode
    return f"{b64(payload).rstrip(b'=').decode()}.{b64(signature).rstrip(b'=').decode()}"


def test_a_token_from_before_key_ids_is_checked_with_key_0() -> None:
    token = _legacy(KEY, '{"p":"g_x","n":"Old","e":100}')
    assert verify(KEY, token, now_s=1).name == "Old"  # PF_TOKEN_KEY alone: key "0"
    assert verify(KeyRing((("new", b"n" * 32), ("0", KEY))), token, now_s=1).name == "Old"
    with pytest.raises(InvalidToken, match="signature"):
        verify(KeyRing((("new", b"n" * 32),)), token, now_s=1)
    with pytest.raises(InvalidToken, match="signature"):
        verify(KeyRing((("1", KEY),)), token, now_s=1)  # the key, but not named "0"


def test_a_token_naming_an_unknown_key_is_refused_like_a_forged_one() -> None:
    token, _ = issue(KeyRing((("zz", KEY),)), "Eve", now_s=0)
    with pytest.raises(InvalidToken, match="signature"):
        verify(KeyRing((("0", KEY),)), token, now_s=1)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "nokey",
        ":" + "ab" * 16,
        "a:",
        "bad id:" + "ab" * 16,
        "a" * 17 + ":" + "ab" * 16,
        "a:" + "ab" * 15,  # 30 hex digits: too short
        "a:" + "xy" * 16,  # not hex
        "a:" + "ab" * 16 + ",a:" + "cd" * 16,  # one id, two keys
        ",".join(f"k{n}:" + "ab" * 16 for n in range(3)),  # three keys
    ],
)
def test_a_malformed_key_ring_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"PF_TOKEN_KEYS|key id"):
        KeyRing.parse(text)


def test_a_key_ring_is_one_or_two_hex_keys_the_first_signing() -> None:
    old, new = "ab" * 32, "CD" * 16
    ring = KeyRing.parse(f" new:{new} , old_1:{old}")
    assert ring.signing == ("new", new.encode())
    assert ring.key("old_1") == old.encode()  # the text is the key, as PF_TOKEN_KEY's
    assert ring.key("other") is None


def test_a_malformed_key_ring_s_message_never_shows_a_key() -> None:
    secret = "f" * 30
    with pytest.raises(ValueError) as error:
        KeyRing.parse(f"a:{secret}")
    assert secret not in str(error.value)


def test_an_access_token_names_its_session_and_account_and_a_guest_s_neither() -> None:
    token, identity = issue_access(A, "acct-7", "Ann", "s_1", now_s=0)
    assert verify(A, token, now_s=1) == identity
    assert (identity.player_id, identity.session_id, identity.account) == ("acct-7", "s_1", True)
    assert identity.expires_at == ACCESS_TTL_S == 600
    assert _fields(token)["a"] == 1
    guest_token, guest = issue(A, "Bo", now_s=0)
    assert verify(A, guest_token, now_s=1) == guest
    assert (guest.session_id, guest.account, guest.expires_at) == ("", False, TTL_S)
    assert guest.player_id.startswith("g_")
    assert set(_fields(guest_token)) == {"p", "n", "e", "k"}


@pytest.mark.parametrize("make", [issue_access, None])
def test_a_token_expires_at_its_expiry_not_a_second_later(make: object) -> None:
    if make is None:
        token, identity = issue(A, "Bo", now_s=100, ttl_s=60)
    else:
        token, identity = issue_access(A, "a_1", "Ann", "s_1", now_s=100, ttl_s=60)
    assert verify(A, token, now_s=159) == identity
    with pytest.raises(InvalidToken, match="expired"):
        verify(A, token, now_s=160)  # expires_at <= now


TOKEN_ALPHABET = BASE64URL + ".=+/ !"
# Issued once: a guest's token names a random player, and what hypothesis draws from a
# token must be the same each time it replays an example.
TOKENS = (issue(A, "Ann", 0)[0], issue_access(A, "a_1", "Ann", "s_1", 0)[0])


@given(st.data())
def test_any_changed_character_is_refused(data: st.DataObject) -> None:
    token = data.draw(st.sampled_from(TOKENS))
    index = data.draw(st.integers(0, len(token) - 1))
    replacement = data.draw(st.sampled_from(TOKEN_ALPHABET).filter(lambda c: c != token[index]))
    with pytest.raises(InvalidToken):
        verify(A, token[:index] + replacement + token[index + 1 :], now_s=1)


@given(st.data())
def test_any_changed_byte_of_the_payload_is_refused(data: st.DataObject) -> None:
    token = issue_access(A, "a_1", "Ann", "s_1", 0)[0]
    payload_text, signature = token.split(".")
    payload = bytearray(base64.urlsafe_b64decode(payload_text + "=" * 3))
    index = data.draw(st.integers(0, len(payload) - 1))
    payload[index] = data.draw(st.integers(0, 255).filter(lambda b: b != payload[index]))
    forged = base64.urlsafe_b64encode(payload).rstrip(b"=").decode()
    with pytest.raises(InvalidToken):
        verify(A, f"{forged}.{signature}", now_s=1)


def test_a_signed_out_session_s_tokens_are_refused_even_when_remembered() -> None:
    now = [1000.0]
    check = TokenCheck(A, clock=lambda: now[0])
    mine, _ = issue_access(A, "a_1", "Ann", "s_1", now_s=1000)
    other, _ = issue_access(A, "a_1", "Ann", "s_2", now_s=1000)
    guest, _ = issue(A, "Bo", now_s=1000)
    assert check.identity(mine).session_id == "s_1"  # checked and remembered
    check.end_session("s_1", until_s=1000 + ACCESS_TTL_S)
    with pytest.raises(InvalidToken, match="the session was signed out"):
        check.identity(mine)
    assert check.identity(other).session_id == "s_2"  # other sessions untouched
    assert check.identity(guest).player_id.startswith("g_")


def test_a_signed_out_session_s_token_is_refused_when_first_seen_after() -> None:
    check = TokenCheck(A, clock=lambda: 1000.0)
    check.end_session("s_1", until_s=1000 + ACCESS_TTL_S)
    mine, _ = issue_access(A, "a_1", "Ann", "s_1", now_s=1000)
    for _ in range(2):  # neither checked nor remembered
        with pytest.raises(InvalidToken, match="the session was signed out"):
            check.identity(mine)


def test_an_ended_session_is_forgotten_once_its_until_passes() -> None:
    now = [1000.0]
    check = TokenCheck(A, clock=lambda: now[0])
    mine, _ = issue_access(A, "a_1", "Ann", "s_1", now_s=1000, ttl_s=300)
    check.identity(mine)
    check.end_session("s_1", until_s=1100)  # before the token's own expiry, for the test
    now[0] = 1099.0
    with pytest.raises(InvalidToken, match="signed out"):
        check.identity(mine)
    now[0] = 1100.0
    assert check.identity(mine).session_id == "s_1"  # refused until until_s, not after
    assert check.ended_sessions() == 1
    check.end_session("s_2", until_s=2000)  # each ending prunes the ended ones
    assert check.ended_sessions() == 1


def test_an_ending_already_past_is_not_held() -> None:
    check = TokenCheck(A, clock=lambda: 1000.0)
    check.end_session("s_1", until_s=1000)
    assert check.ended_sessions() == 0


@given(
    st.lists(st.sampled_from(["s_1", "s_2", "s_3"]), max_size=6),
    st.sampled_from(["s_1", "s_2", "s_3"]),
)
def test_only_the_ended_sessions_are_refused(ended: list[str], shown: str) -> None:
    check = TokenCheck(A, clock=lambda: 1000.0)
    token, _ = issue_access(A, "a_1", "Ann", shown, now_s=1000)
    check.identity(token)
    for session_id in ended:
        check.end_session(session_id, until_s=1000 + ACCESS_TTL_S)
    if shown in ended:
        with pytest.raises(InvalidToken, match="signed out"):
            check.identity(token)
    else:
        assert check.identity(token).session_id == shown


async def test_an_operators_token_carries_the_role_to_the_services_and_no_other_does() -> None:
    """The role is in the signed payload: only the accounts service's word puts it there."""
    token, identity = issue_access(KEY, "a_olga", "Olga", "s_9", now_s=1000, operator=True)
    assert identity.operator and _fields(token)["r"] == "operator"
    assert verify(KEY, token, now_s=1001) == identity
    plain, player = issue_access(KEY, "a_bob", "Bob", "s_8", now_s=1000)
    assert not player.operator and "r" not in _fields(plain)
    hook = identity_hook(TokenCheck(KEY, clock=lambda: 1001.0))
    route = public_routes()["/photofinish.client.v1.Arena/GetFairPlayQueue"]

    async def metadata(bearer: str, **headers: str) -> dict[str, str]:
        request = make_mocked_request(
            "POST", "/", headers={"authorization": f"Bearer {bearer}", **headers}
        )
        return {key: str(value) for key, value in await hook(request, route)}

    assert (await metadata(token))[ROLE] == OPERATOR
    # A player's own header, or a role written into a guest's payload, never counts.
    assert ROLE not in await metadata(plain, **{"x-pf-role": "operator"})
    payload = json.loads(base64.urlsafe_b64decode(plain.split(".")[0] + "=="))
    payload["r"] = "operator"
    forged = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    with pytest.raises(RequestRefused):
        await metadata(f"{forged}.{plain.split('.')[1]}")
    guest, _ = issue(KEY, "Gus", now_s=1000)
    assert ROLE not in await metadata(guest)
