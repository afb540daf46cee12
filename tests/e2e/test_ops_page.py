"""The gateway's ops page reads every service's /metrics: who is up, and the key figures."""

from __future__ import annotations

import asyncio
import base64
import signal
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from clients.grpcweb import CallError
from photofinish.game.v1 import bid_pb2, game_pb2
from services.stack.stack import SERVICES, Stack, StackConfig, run_stack
from tests.e2e.support import challenge, player

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
DRAW = game_pb2.Command(bid=bid_pb2.BidCommand(draw=bid_pb2.BidDraw()))


def as_operator(stack: Stack) -> dict[str, str]:
    """Return the headers that sign in to /ops (tests/e2e/test_ops_access.py: only they do)."""
    encoded = base64.b64encode(f"operator:{stack.ops_password}".encode()).decode()
    return {"Authorization": f"Basic {encoded}"}


async def figures(http: aiohttp.ClientSession, stack: Stack) -> dict[str, Any]:
    url = f"{stack.gateway_url}/ops/figures"
    async with http.get(url, headers=as_operator(stack)) as response:
        assert response.status == 200
        found: dict[str, Any] = await response.json()
        return found


async def settled(http: aiohttp.ClientSession, stack: Stack) -> dict[str, Any]:
    """Return the figures once every process has sampled its event loop (every 100 ms)."""
    for _ in range(50):
        shown = await figures(http, stack)
        if all(s["loop_lag_p99_ms"] is not None for s in shown["services"] if s["up"]):
            return shown
        await asyncio.sleep(0.1)
    raise AssertionError(f"a service reports no event-loop lag: {shown}")


async def test_the_ops_page_shows_every_service_up_and_the_commands_played(
    tmp_path: Path,
) -> None:
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False)) as stack,
        aiohttp.ClientSession() as http,
    ):
        async with http.get(f"{stack.gateway_url}/ops", headers=as_operator(stack)) as page:
            assert page.status == 200
            html = await page.text()
        assert "ops/figures" in html
        assert "http://" not in html and "https://" not in html  # no external assets

        a, b = await player(http, stack, "Alice"), await player(http, stack, "Bob")
        alice, bob = await challenge(a, b, game_pb2.GAME_BID, rated=False)
        await alice.submit(READY)
        await bob.submit(READY)
        with pytest.raises(CallError):
            await alice.submit(DRAW)  # refused (not her turn or at a gate): still judged

        shown = await settled(http, stack)
        assert {s["name"]: s["up"] for s in shown["services"]} == {
            "gateway": True,
            "accounts": True,
            **{name: True for name in SERVICES},
        }
        assert shown["live_matches"] >= 1
        assert shown["commands_total"] >= 3
        assert shown["command_latency_ms"]["p50"] > 0
        assert shown["command_latency_ms"]["p99"] >= shown["command_latency_ms"]["p50"]
        # A loaded machine may see a fault while starting: the counts are there, whatever they are.
        assert isinstance(shown["faults"], dict) and isinstance(shown["voids"], dict)
        assert shown["ratings_pending"] == 0

        assert await stack.stop("ratings", signal.SIGTERM) == 0
        shown = await figures(http, stack)
        assert {s["name"]: s["up"] for s in shown["services"]}["ratings"] is False
        assert shown["live_matches"] >= 1
