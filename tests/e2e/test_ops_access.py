"""The gateway's metrics and ops page are not for the public.

An attack from anywhere a player can reach: the public port has no `/metrics` (it is on
the gateway's own metrics port, as every service's is), and `/ops` and the figures it
polls answer nobody without the operator's password. A guesser is held to its address's
limit, the right password included once it is spent; a gateway given no password keeps
`/ops` closed. (Before, both were open on the public port to anyone.)
"""

from __future__ import annotations

import base64
from pathlib import Path

import aiohttp
import pytest

from services.stack.stack import OPS_PASSWORD_FILE, Stack, StackConfig, run_stack

pytestmark = pytest.mark.asyncio(loop_scope="module")

Arena = tuple[Stack, aiohttp.ClientSession]
OPS_PATHS = ("/ops", "/ops/figures")
CHALLENGE = 'Basic realm="photofinish ops", charset="UTF-8"'
# Room for every wrong try of this module's shared stack (the limit has its own test).
STACK_ENV = (("PF_OPS_FAILURES_PER_MINUTE", "100"),)


def wrong(password: str) -> str:
    """Return ``password`` with its last character changed: one guess off."""
    return password[:-1] + ("a" if password[-1] != "a" else "b")


def basic(user: str, password: str) -> dict[str, str]:
    """Return the headers of a request that signs in as ``user`` with HTTP Basic."""
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


async def status(http: aiohttp.ClientSession, url: str, headers: dict[str, str]) -> int:
    async with http.get(url, headers=headers) as response:
        return response.status


async def test_metrics_are_on_the_gateways_metrics_port_and_not_the_public_one(
    arena: Arena,
) -> None:
    stack, http = arena
    async with http.get(f"{stack.gateway_url}/metrics") as response:
        assert response.status == 404
        assert "pf_" not in await response.text()
    metrics = f"http://{stack.address('gateway', 'metrics')}/metrics"
    async with http.get(metrics) as response:
        assert response.status == 200
        text = await response.text()
    assert 'pf_nats_connected{connection="gateway"} 1.0' in text
    assert "pf_gateway_connections" in text  # the gateway's own, not another service's
    assert "pf_event_loop_lag_seconds" in text
    async with http.get(f"http://{stack.address('gateway', 'metrics')}/ops") as response:
        assert response.status == 404  # the metrics port serves metrics alone


@pytest.mark.parametrize("path", OPS_PATHS)
async def test_ops_answers_the_operator_alone(arena: Arena, path: str) -> None:
    stack, http = arena
    url = f"{stack.gateway_url}{path}"
    async with http.get(url) as response:
        assert response.status == 401
        assert response.headers["WWW-Authenticate"] == CHALLENGE
        assert "live_matches" not in await response.text()
    password = stack.ops_password
    assert await status(http, url, basic("operator", wrong(password))) == 401
    assert await status(http, url, basic("admin", password)) == 401
    assert await status(http, url, basic("operator", "")) == 401
    assert await status(http, url, {"Authorization": "Bearer " + password}) == 401
    assert await status(http, url, basic("operator", password)) == 200


async def test_the_password_is_in_a_private_file_the_operator_reads(arena: Arena) -> None:
    stack, _ = arena
    path = Path(stack.children["gateway"].env["PF_OPS_PASSWORD_FILE"])
    assert path.name == OPS_PASSWORD_FILE
    assert path.read_text() == stack.ops_password
    assert path.stat().st_mode & 0o777 == 0o600
    assert len(stack.ops_password) >= 16
    assert "PF_OPS_PASSWORD" not in stack.children["gateway"].env  # in no environment


async def test_a_guesser_is_refused_even_the_right_password_once_its_guesses_are_spent(
    tmp_path: Path,
) -> None:
    # One wrong password a minute: the first guess spends the address's bucket.
    config = StackConfig(
        tmp_path, with_bots=False, extra_env=(("PF_OPS_FAILURES_PER_MINUTE", "1"),)
    )
    async with run_stack(config) as stack, aiohttp.ClientSession() as http:
        url = f"{stack.gateway_url}/ops/figures"
        right = basic("operator", stack.ops_password)
        guess = basic("operator", wrong(stack.ops_password))
        assert await status(http, url, right) == 200  # the right one spends nothing
        assert await status(http, url, guess) == 401
        for headers in (guess, right, {}):
            async with http.get(url, headers=headers) as response:
                assert response.status == 429
                assert int(response.headers["Retry-After"]) >= 1
                assert "live_matches" not in await response.text()


async def test_a_gateway_without_a_password_keeps_ops_closed(tmp_path: Path) -> None:
    config = StackConfig(tmp_path, with_bots=False, ops_password="")
    async with run_stack(config) as stack, aiohttp.ClientSession() as http:
        assert not (tmp_path / OPS_PASSWORD_FILE).exists()
        for path in OPS_PATHS:
            url = f"{stack.gateway_url}{path}"
            for headers in ({}, basic("operator", ""), basic("", "")):
                async with http.get(url, headers=headers) as response:
                    assert response.status == 503, (path, headers)
                    assert "no operator password" in await response.text()
