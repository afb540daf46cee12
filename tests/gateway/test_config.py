"""The gateway's token keys from the environment: the ring, the old single key, a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.common.settings import ConfigError
from services.gateway.config import token_keys
from services.gateway.tokens import KeyRing, issue, verify

OLD = "ab" * 32
NEW = "cd" * 32


def test_pf_token_key_alone_is_key_0_and_checks_the_tokens_it_signed_before() -> None:
    ring = token_keys({"PF_TOKEN_KEY": OLD})
    assert ring == KeyRing((("0", OLD.encode()),))
    token, identity = issue(OLD.encode(), "Ada", now_s=0)  # as today's gateway signs
    assert verify(ring, token, now_s=1) == identity


def test_pf_token_keys_is_the_whole_ring_the_first_signing() -> None:
    ring = token_keys({"PF_TOKEN_KEYS": f"new:{NEW},0:{OLD}", "PF_TOKEN_KEY": OLD})
    assert ring.signing == ("new", NEW.encode())
    assert ring.key("0") == OLD.encode()  # PF_TOKEN_KEY's key, brought in as 0:<it>


def test_no_key_at_all_is_a_random_one() -> None:
    assert token_keys({}).signing[0] == "0"
    assert token_keys({}) != token_keys({})
    assert token_keys({"PF_TOKEN_KEYS": ""}).signing[0] == "0"  # Compose's ${…:-}


def test_the_ring_may_come_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "token-keys"
    path.write_text(f"b:{NEW}\n")
    assert token_keys({"PF_TOKEN_KEYS_FILE": str(path)}) == KeyRing((("b", NEW.encode()),))


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"PF_TOKEN_KEYS": "b"}, "PF_TOKEN_KEYS's key 1 is not id:hexkey"),
        ({"PF_TOKEN_KEYS": "b:short"}, "PF_TOKEN_KEYS's key 'b' is not 32 hex digits"),
        ({"PF_TOKEN_KEYS": f"a:{OLD},b:{NEW},c:{NEW}"}, "one or two keys"),
        ({"PF_TOKEN_KEYS": f"b:{NEW}", "PF_TOKEN_KEYS_FILE": "/x"}, "not both"),
        ({"PF_TOKEN_KEYS_FILE": "/nonexistent/token-keys"}, "PF_TOKEN_KEYS_FILE="),
    ],
)
def test_a_malformed_ring_stops_the_gateway_with_a_clear_message(
    env: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        token_keys(env)


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(ConfigError, match="is empty"):
        token_keys({"PF_TOKEN_KEYS_FILE": str(tmp_path / "empty")})
