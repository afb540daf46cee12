"""The operator's credential: HTTP Basic with one password, guesses held to a rate."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request

from services.gateway.ops.credential import (
    CHALLENGE,
    Handler,
    failure_rate,
    is_operator,
    operator_only,
    password_from,
)
from services.gateway.ratelimit import CommandRate

PASSWORD = "correct horse battery staple"


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


class Clock:
    def __init__(self) -> None:
        self.s = 100.0

    def __call__(self) -> float:
        return self.s


def test_only_the_operator_with_the_password_is_the_operator() -> None:
    assert is_operator(basic("operator", PASSWORD), PASSWORD)
    assert is_operator("basic " + basic("operator", PASSWORD).split()[1], PASSWORD)
    assert not is_operator(basic("operator", PASSWORD + "x"), PASSWORD)
    assert not is_operator(basic("operator", PASSWORD[:-1]), PASSWORD)
    assert not is_operator(basic("admin", PASSWORD), PASSWORD)
    assert not is_operator(basic("operator", ""), PASSWORD)
    assert not is_operator("", PASSWORD)
    assert not is_operator("Bearer " + PASSWORD, PASSWORD)
    assert not is_operator("Basic not*base64", PASSWORD)
    assert not is_operator(basic("operator", ""), "")  # no password: nobody, ever


def test_the_password_comes_from_the_variable_or_a_file(tmp_path: Path) -> None:
    assert password_from({}) == ""
    assert password_from({"PF_OPS_PASSWORD": PASSWORD}) == PASSWORD
    secret = tmp_path / "ops-password"
    secret.write_text(PASSWORD + "\n")  # as `echo` and most editors leave it
    assert password_from({"PF_OPS_PASSWORD_FILE": str(secret)}) == PASSWORD


def test_an_unusable_password_stops_the_gateway_at_start(tmp_path: Path) -> None:
    secret = tmp_path / "ops-password"
    secret.write_text(PASSWORD)
    with pytest.raises(ValueError, match="not both"):
        password_from({"PF_OPS_PASSWORD": PASSWORD, "PF_OPS_PASSWORD_FILE": str(secret)})
    with pytest.raises(ValueError, match="16 at least"):
        password_from({"PF_OPS_PASSWORD": "hunter2"})
    with pytest.raises(FileNotFoundError):
        password_from({"PF_OPS_PASSWORD_FILE": str(tmp_path / "missing")})


async def page(request: web.Request) -> web.StreamResponse:
    return web.Response(text="figures")


async def answer(guarded: Handler, authorization: str = "") -> web.Response:
    """Return what ``guarded`` answers a request with ``authorization``, a refusal included."""
    headers = {"Authorization": authorization} if authorization else {}
    request = make_mocked_request("GET", "/ops", headers=headers)
    try:
        answered = await guarded(request)
    except web.HTTPException as refused:
        return refused
    assert isinstance(answered, web.Response)
    return answered


async def test_a_wrong_password_is_refused_and_spends_a_guess() -> None:
    failures = CommandRate(per_s=1 / 60, burst=2, now=Clock())
    guarded = operator_only(PASSWORD, failures)(page)
    assert (await answer(guarded)).status == 401
    assert (await answer(guarded)).headers["WWW-Authenticate"] == CHALLENGE
    assert (await answer(guarded, basic("operator", PASSWORD))).status == 200
    assert (await answer(guarded, basic("operator", "guess one"))).status == 401
    assert (await answer(guarded, basic("operator", "guess two"))).status == 401
    spent = await answer(guarded, basic("operator", PASSWORD))
    assert spent.status == 429  # even the right one: no oracle past the limit
    assert spent.headers["Retry-After"] == "60"


async def test_a_guess_comes_back_as_the_bucket_refills() -> None:
    clock = Clock()
    failures = CommandRate(per_s=1 / 60, burst=1, now=clock)
    guarded = operator_only(PASSWORD, failures)(page)
    assert (await answer(guarded, basic("operator", "a guess"))).status == 401
    clock.s += 59.5
    assert (await answer(guarded, basic("operator", PASSWORD))).status == 429
    clock.s += 0.5
    assert (await answer(guarded, basic("operator", PASSWORD))).status == 200


async def test_without_a_password_the_page_is_closed_to_everyone() -> None:
    guarded = operator_only("", failure_rate())(page)
    for authorization in ("", basic("operator", ""), basic("", "")):
        closed = await answer(guarded, authorization)
        assert closed.status == 503
        assert "no operator password" in (closed.text or "")
