"""The gateway's probes: /healthz while its process serves (liveness), /readyz only while
NATS is connected and an arbitration instance is announced (readiness)."""

from __future__ import annotations

import signal
from pathlib import Path

import aiohttp

from services.stack.stack import StackConfig, run_stack
from tests.waiting import poll_until

NOT_READY = "not ready: no arbitration instance has announced itself\n"


async def probe(http: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with http.get(url) as response:
        return response.status, await response.text()


async def test_the_gateway_is_not_ready_while_no_arbitration_runs(tmp_path: Path) -> None:
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False)) as stack,
        aiohttp.ClientSession() as http,
    ):
        ready, alive = f"{stack.gateway_url}/readyz", f"{stack.gateway_url}/healthz"
        assert await probe(http, ready) == (200, "ready\n")
        await stack.stop("arbitration", signal.SIGKILL)

        async def answer(wanted: int) -> tuple[int, str] | None:
            got = await probe(http, ready)
            return got if got[0] == wanted else None

        assert await poll_until("not ready", lambda: answer(503)) == (503, NOT_READY)
        assert await probe(http, alive) == (200, "ok\n")  # alive all the same
        await stack.start_again("arbitration")
        assert await poll_until("ready again", lambda: answer(200)) == (200, "ready\n")
