"""Two arbitration instances: the gateway routes by owner; a survivor adopts the dead's matches.

Matches are opened by whichever instance answers matchmaking. Every command reaches the
owner through the gateway. When one instance is killed and not restarted, the other adopts
its matches once the dead one's liveness record expires: a rated match whose clock was
running is voided (``arbitration_failover``), a casual one plays on to a correct finish,
a command retried across the failover is answered, not applied twice, and the survivor's
own matches are untouched.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import nats

from clients.grpcweb import CallError
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from services.common.placement import Directory
from services.stack.stack import Stack, StackConfig, run_stack
from tests.e2e.support import Seated, challenge, first_end, player, until
from tests.e2e.test_failover import READY, SUBMIT, first_move, latest, play_to_a_correct_finish
from tests.pace import FAST_PLAY_ENV  # its bots play with no think time

UNAVAILABLE = 14
ADOPTION_WAIT_S = 30.0


@contextlib.asynccontextmanager
async def two_instances(
    tmp_path: Path,
) -> AsyncIterator[tuple[Stack, aiohttp.ClientSession, Directory]]:
    """Yield a stack with two arbitration instances, an HTTP session, and the directory of
    which instance owns which match."""
    config = StackConfig(
        tmp_path, with_bots=False, arbitration_instances=2, extra_env=FAST_PLAY_ENV
    )
    async with run_stack(config) as stack, aiohttp.ClientSession() as http:
        nc = await nats.connect(stack.nats_url)
        directory = await Directory.open(nc.jetstream())
        await directory.start()
        try:
            yield stack, http, directory
        finally:
            await directory.stop()
            await nc.close()


async def seat_pair(
    http: aiohttp.ClientSession, stack: Stack, number: int, rated: bool
) -> tuple[Seated, Seated]:
    a = await player(http, stack, f"A{number}")
    b = await player(http, stack, f"B{number}")
    return await challenge(a, b, game_pb2.GAME_BID, rated)


async def submit_until_answered(
    seated: Seated, request: arbitration_pb2.SubmitRequest
) -> arbitration_pb2.SubmitReply:
    """Send ``request`` until an instance answers it (while the failover is under way)."""
    deadline = asyncio.get_running_loop().time() + ADOPTION_WAIT_S
    while True:
        try:
            return await seated.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)
        except CallError as error:
            moving = error.code == UNAVAILABLE or error.reason == "unknown_match"
            if not moving or asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.2)


async def test_a_survivor_adopts_a_killed_instances_matches(tmp_path: Path) -> None:
    async with two_instances(tmp_path) as (stack, http, directory):
        # Open casual and rated matches until one instance holds one of each and the
        # other holds at least one: the queue group spreads them at random.
        owned: dict[str, list[tuple[bool, tuple[Seated, Seated]]]] = {}
        for number in range(30):
            rated = number % 2 == 1
            pair = await seat_pair(http, stack, number, rated)
            owner = await directory.owner_of(pair[0].match_id)
            assert owner in ("arbitration", "arbitration-2")
            owned.setdefault(owner, []).append((rated, pair))
            both_kinds = [
                name for name, held in owned.items() if {r for r, _ in held} == {True, False}
            ]
            if both_kinds and len(owned) == 2:
                break
        victim = both_kinds[0]
        survivor = next(name for name in owned if name != victim)

        every = [pair for held in owned.values() for _, pair in held]
        for pair in every:  # each through the gateway, so each reached its owner
            for seated in pair:
                await seated.submit(READY)
        casual = next(pair for rated, pair in owned[victim] if not rated)
        rated_pair = next(pair for rated, pair in owned[victim] if rated)
        await until(
            rated_pair[0].client.watch(rated_pair[0].match_id, rated_pair[0].seat),
            lambda u: u.clock.running >= 0,
        )
        kept = {pair[0].match_id: (await latest(pair[0])).seq for _, pair in owned[survivor]}

        mover, request = await first_move(casual)
        first = await mover.client.web.unary(SUBMIT, request, arbitration_pb2.SubmitReply)

        await stack.stop(victim, signal.SIGKILL)  # and not started again

        retried = await submit_until_answered(mover, request)
        assert retried == first  # answered from the snapshot, not applied again
        assert await directory.owner_of(casual[0].match_id) == survivor
        assert (await latest(casual[0])).seq == first.seq

        voided = await first_end(
            rated_pair[0].client.watch(rated_pair[0].match_id, rated_pair[0].seat)
        )
        assert voided.status == arbitration_pb2.STATUS_VOIDED
        assert voided.void_reason.startswith("arbitration_failover")

        for _, pair in owned[survivor]:  # the survivor's own matches: untouched
            update = await latest(pair[0])
            assert update.status == arbitration_pb2.STATUS_LIVE
            assert update.seq == kept[pair[0].match_id]
            assert not update.void_reason

        await play_to_a_correct_finish(casual)


async def live_matches(http: aiohttp.ClientSession, stack: Stack, name: str) -> float:
    async with http.get(f"http://{stack.address(name, 'metrics')}/metrics") as response:
        text = await response.text()
    line = next(x for x in text.splitlines() if x.startswith("pf_live_matches "))
    return float(line.split()[1])


async def test_a_stalled_instance_that_wakes_up_has_let_go_of_what_was_adopted(
    tmp_path: Path,
) -> None:
    async with two_instances(tmp_path) as (stack, http, directory):
        casual = await seat_pair(http, stack, 0, rated=False)
        victim = await directory.owner_of(casual[0].match_id)
        assert victim is not None
        for seated in casual:
            await seated.submit(READY)

        stack.children[victim].process.send_signal(signal.SIGSTOP)
        try:
            for _ in range(int(ADOPTION_WAIT_S / 0.2)):
                if await directory.owner_of(casual[0].match_id) != victim:
                    break
                await asyncio.sleep(0.2)
        finally:
            stack.children[victim].process.send_signal(signal.SIGCONT)
        assert await directory.owner_of(casual[0].match_id) != victim

        for _ in range(int(ADOPTION_WAIT_S / 0.2)):  # the woken instance lets go
            if await live_matches(http, stack, victim) == 0:
                break
            await asyncio.sleep(0.2)
        assert await live_matches(http, stack, victim) == 0

        await play_to_a_correct_finish(casual)
        assert stack.children[victim].process.returncode is None  # woke up and runs on
