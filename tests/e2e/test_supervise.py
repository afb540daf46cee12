"""`make run`'s supervisor: a service killed with SIGKILL is started again on its own ports,
logged and counted, and the arena plays on."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import aiohttp
from prometheus_client import REGISTRY

from photofinish.game.v1 import bid_pb2, game_pb2
from services.stack.stack import StackConfig, run_stack
from services.stack.supervise import Supervisor
from tests.e2e.support import challenge, player
from tests.waiting import poll_until

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))


def restarts(process: str) -> float:
    """The supervisor's count of ``process``'s restarts (its metric, as /ops reads it)."""
    return REGISTRY.get_sample_value("pf_restarts_total", {"process": process}) or 0.0


async def test_a_killed_arbitration_is_started_again_and_the_arena_plays_on(
    tmp_path: Path,
) -> None:
    said: list[str] = []
    async with run_stack(StackConfig(tmp_path, with_bots=False)) as stack:
        supervising = asyncio.create_task(Supervisor(stack, said.append).run())
        try:
            before = stack.children["arbitration"]
            port = before.ports["grpc"]
            counted = restarts("arbitration")
            before.process.kill()
            await poll_until(
                "arbitration started again", lambda: "arbitration is running again" in said
            )
            after = stack.children["arbitration"]
            assert after is not before and after.process.returncode is None
            assert after.ports["grpc"] == port  # the gateway still finds it where it was
            assert said[0].startswith("arbitration exited (-9); starting it again in 1 s")
            assert restarts("arbitration") == counted + 1
            async with aiohttp.ClientSession() as http:
                a, b = await player(http, stack, "After"), await player(http, stack, "Kill")
                first, _ = await challenge(a, b, game_pb2.GAME_BID, rated=False)
                reply = await first.submit(READY)
                assert reply.seq >= 1
        finally:
            supervising.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await supervising
