"""No fault, no void: 200 concurrent matches at a human pace leave the timing untouched.

A clean run must raise no fault on a machine that is busy but not saturated, as a
healthy deployment is; past saturation faults are real (docs/loadtest.md measures where
that begins). The test's players and the computer players think twice as long as the
medium level (an accepted command every 4 s or so per seat), which keeps the stack to
about a third of this 2-core machine, so that a CI machine with half the CPU to give
still is not saturated. The players are clients, which on a deployment run elsewhere: they run at a
lower CPU priority than the stack. Afterwards every match's arbitration log, replayed
from its seed, reproduces every step the rules service took, to the hash of the state it
holds for that match after each one.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

import aiohttp
import nats
import pytest
from prometheus_client.parser import text_string_to_metric_families

from clients.arena import ArenaClient
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.game.v1 import game_pb2
from services.common.matchlogs import read_entries
from services.stack.stack import Stack, StackConfig, run_stack
from tests.e2e.support import Seated, challenge, lower_cpu_priority, player
from tests.pace import AS_DEPLOYED_ENV, FAST_PLAY_ENV
from tests.waiting import poll_until
from tools.replay import Replayed, replay

RATED_MATCHES = 100
COMPUTER_MATCHES = 100
PLAY_S = 15.0
ARRIVALS_S = 3.0  # the seats start playing over this long, as people's pages do
CATCH_UP_S = 300.0  # a guard against a hang, not a measured time
THINK_SCALE = 2.0  # the players think twice as long as the medium level
CLIENT_NICENESS = 10
BOTS_PACE = (("PF_BOTS_THINK_SCALE", str(THINK_SCALE)), *FAST_PLAY_ENV, *AS_DEPLOYED_ENV)
GAMES_CYCLE = (game_pb2.GAME_SPIT, game_pb2.GAME_BID)


def seat_player(seated: Seated, game: game_pb2.Game.ValueType, level: Level) -> SeatPlayer:
    return SeatPlayer(
        seated.client,
        seated.match_id,
        seated.seat,
        GAMES[game],
        level,
        random.Random(f"{seated.match_id}/{seated.seat}"),
        Pace(think_scale=THINK_SCALE),
        Reconnect(),
    )


async def arrive(seat: SeatPlayer, after_s: float) -> None:
    await asyncio.sleep(after_s)
    await seat.play()


async def replayed(js: nats.js.JetStreamContext, match_id: str) -> Replayed:
    """Replay the match's log as far as it goes: every step the rules service took must be
    reproduced, to the hash of its state (each entry carries the rules' own hash)."""
    result = replay(await read_entries(js, match_id), live=True)
    assert result.identical, f"{match_id}: {result.divergence}"
    return result


async def samples(http: aiohttp.ClientSession, stack: Stack, name: str) -> float:
    url = f"http://127.0.0.1:{stack.children['arbitration'].ports['metrics']}/metrics"
    async with http.get(url) as response:
        text = await response.text()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name
    )


def fault_lines(stack: Stack) -> str:
    """The arbitration's own account of its faults (kind, measured ms), for a failure."""
    text = (stack.log_dir / "arbitration.log").read_text(errors="replace")
    return "\n".join(line for line in text.splitlines() if "timing fault" in line)


@pytest.mark.load
async def test_two_hundred_concurrent_matches_at_human_pace_void_nothing(tmp_path: Path) -> None:
    # Every seat holds a Watch stream open: no cap on connections, or submits would queue.
    connector = aiohttp.TCPConnector(limit=0)
    async with (
        run_stack(StackConfig(tmp_path, extra_env=BOTS_PACE)) as stack,
        aiohttp.ClientSession(connector=connector) as http,
    ):
        players: list[SeatPlayer] = []
        for index in range(RATED_MATCHES):
            game = GAMES_CYCLE[index % 2]
            a, b = await player(http, stack, f"a{index}"), await player(http, stack, f"b{index}")
            for seated in await challenge(a, b, game, rated=True):
                players.append(seat_player(seated, game, Level.MEDIUM))
        for index in range(COMPUTER_MATCHES):
            game = GAMES_CYCLE[index % 2]
            human: ArenaClient = await player(http, stack, f"h{index}")
            assignment = await human.play_computer(game, game_pb2.LEVEL_MEDIUM)
            seated = Seated(human, assignment.match_id, assignment.seats[0])
            players.append(seat_player(seated, game, Level.MEDIUM))

        with lower_cpu_priority(CLIENT_NICENESS):
            arrivals = random.Random(0)
            tasks = [
                asyncio.create_task(arrive(p, arrivals.uniform(0, ARRIVALS_S))) for p in players
            ]
            await asyncio.sleep(ARRIVALS_S + PLAY_S)  # all 200 matches live together for PLAY_S
            # A slow machine plays fewer commands in that time (this client runs at a lower
            # priority than the stack): play on until the matches really were played.
            await poll_until(
                "more commands accepted than there are seats",
                lambda: sum(p.tally.accepted for p in players) > len(players) or None,
                timeout_s=CATCH_UP_S,
            )
            # A seat that stopped on an error (its updates lost) failed the run; the others
            # are stopped now, whatever their cancellation raises.
            failed = [t.exception() for t in tasks if t.done() and t.exception() is not None]
            assert failed == [], failed
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        played = sum(p.tally.accepted for p in players)
        assert played > len(players)  # the matches really were played
        assert await samples(http, stack, "pf_live_matches") >= 1
        faults = await samples(http, stack, "pf_timing_faults_total")
        assert faults == 0, f"{faults:g} timing faults:\n{fault_lines(stack)}"
        assert await samples(http, stack, "pf_voids_total") == 0

        nc = await nats.connect(stack.nats_url)
        try:
            match_ids = sorted({p.match_id for p in players})
            assert len(match_ids) == RATED_MATCHES + COMPUTER_MATCHES
            steps = [(await replayed(nc.jetstream(), m)).steps for m in match_ids]
            assert sum(steps) >= played  # every accepted command was replayed, and more
        finally:
            await nc.close()
