"""Fault injection: when the server's time cannot be trusted, rated matches are voided.

Real processes, real NATS: the arbitration is frozen with SIGSTOP, or the gateway holds
each request before forwarding it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

import aiohttp

from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.stack.stack import Stack, StackConfig, run_stack
from tests.e2e.support import Seated, challenge, first_end, metric, next_update, player, until
from tests.pace import AS_DEPLOYED_ENV
from tests.waiting import poll_until

READY = game_pb2.Command(bid=bid_pb2.BidCommand(ready=bid_pb2.BidReady()))
FREEZE_S = 0.5


async def latest(seated: Seated) -> arbitration_pb2.MatchUpdate:
    return await next_update(seated.client.watch(seated.match_id, seated.seat))


async def clock_running(
    stack: Stack, http: aiohttp.ClientSession, names: tuple[str, str], rated: bool
) -> tuple[Seated, Seated]:
    """Return a Bid match whose first decision's clock is running."""
    a, b = await player(http, stack, names[0]), await player(http, stack, names[1])
    first, second = await challenge(a, b, game_pb2.GAME_BID, rated)
    await first.submit(READY)
    await second.submit(READY)
    await until(first.client.watch(first.match_id, first.seat), lambda u: u.clock.running >= 0)
    return first, second


async def test_freezing_the_arbitration_voids_the_rated_match_on_a_running_clock(
    tmp_path: Path,
) -> None:
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False, extra_env=AS_DEPLOYED_ENV)) as stack,
        aiohttp.ClientSession() as http,
    ):
        rated, _ = await clock_running(stack, http, ("Ada", "Bo"), rated=True)
        casual, _ = await clock_running(stack, http, ("Cy", "Di"), rated=False)
        waiting, _ = await challenge(
            await player(http, stack, "Ed"),
            await player(http, stack, "Flo"),
            game_pb2.GAME_BID,
            rated=True,
        )  # at the start gate: no clock runs
        pid = stack.children["arbitration"].process.pid
        os.kill(pid, signal.SIGSTOP)
        await asyncio.sleep(FREEZE_S)
        os.kill(pid, signal.SIGCONT)
        voided = await first_end(rated.client.watch(rated.match_id, rated.seat))
        assert voided.status == arbitration_pb2.STATUS_VOIDED
        assert voided.void_reason.startswith("event_loop_lag")
        assert "tolerance 100 ms" in voided.void_reason
        assert not voided.HasField("outcome")
        assert (await latest(casual)).status == arbitration_pb2.STATUS_LIVE
        assert (await latest(waiting)).status == arbitration_pb2.STATUS_LIVE
        assert (await metric(http, stack, "arbitration", "pf_voids_total")) == {
            "reason=event_loop_lag": 1.0
        }

        async def results() -> dict[str, float] | None:
            counted = await metric(http, stack, "ratings", "pf_ratings_results_total")
            return counted if any(counted.values()) else None

        # Ratings has taken the void from the results stream (and nothing else came).
        assert await poll_until("ratings counts the void", results) == {"kind=voided": 1.0}
        ladder = await rated.client.ladder(game_pb2.GAME_BID)
        assert not ladder.entries  # a void changes no rating


async def test_a_slow_hop_from_the_gateway_voids_a_rated_match(tmp_path: Path) -> None:
    slow = (("PF_INJECT_FORWARDING_DELAY_MS", "300"), *AS_DEPLOYED_ENV)
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False, extra_env=slow)) as stack,
        aiohttp.ClientSession() as http,
    ):
        first, second = await clock_running(stack, http, ("Gil", "Hal"), rated=True)
        updates = first.client.watch(first.match_id, first.seat)
        mover = (await next_update(updates)).decision.seats[0]
        actor = first if first.seat == mover else second
        draw = game_pb2.Command(bid=bid_pb2.BidCommand(draw=bid_pb2.BidDraw()))
        with contextlib.suppress(CallError):  # refused or not, its delay is what counts
            await actor.submit(draw)
        voided = await first_end(updates)
        assert voided.status == arbitration_pb2.STATUS_VOIDED
        assert voided.void_reason.startswith("forwarding_delay")


async def test_a_hop_within_tolerance_voids_nothing(tmp_path: Path) -> None:
    quick = (("PF_INJECT_FORWARDING_DELAY_MS", "20"), *AS_DEPLOYED_ENV)
    async with (
        run_stack(StackConfig(tmp_path, with_bots=False, extra_env=quick)) as stack,
        aiohttp.ClientSession() as http,
    ):
        first, second = await clock_running(stack, http, ("Ivy", "Jo"), rated=True)
        update = await latest(first)
        mover = first if first.seat == update.decision.seats[0] else second
        view = (await latest(mover)).view.bid
        await mover.submit(game_pb2.Command(bid=view.legal[0]))
        after = await latest(first)
        assert after.status == arbitration_pb2.STATUS_LIVE
        assert after.seq > update.seq
        # The 20 ms hop is no fault. (A busy machine may lag the event loop meanwhile: a
        # real fault of another kind, which this test is not about.)
        faults = await metric(http, stack, "arbitration", "pf_timing_faults_total")
        assert faults.get("kind=forwarding_delay", 0.0) == 0.0
