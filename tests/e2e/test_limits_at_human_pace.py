"""The edge's limits, at their defaults, never stop a person: Spit against the hard
computer at the hard computer's own pace (about a human expert's), from an address no
limit exempts, with the match open in a second tab that is reloaded halfway."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import aiohttp
import pytest

from clients.arena import ArenaClient
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.game.v1 import game_pb2, spit_pb2
from services.stack.stack import StackConfig, run_stack
from tests.e2e.support import next_update
from tests.waiting import poll_until

pytestmark = pytest.mark.asyncio(loop_scope="function")

FROM = "127.0.0.2"  # not this machine's own address: every per-address limit applies
COMMANDS = 40  # accepted commands of the person's before the match is left
PLAY_S = 180.0  # generous: a slow machine plays slower, never faster
LIMITS = ("rate_limited", "too_many_streams")
RESIGN = game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign()))


def limited(player: SeatPlayer) -> dict[str, int]:
    """Return the limits the player met, with how often."""
    return {reason: n for reason, n in player.tally.reasons.items() if reason in LIMITS}


async def test_a_person_at_full_speed_in_two_tabs_with_a_reload_meets_no_limit(
    tmp_path: Path,
) -> None:
    async with (
        run_stack(StackConfig(tmp_path)) as stack,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(FROM, 0))) as http,
    ):
        person = ArenaClient(http, stack.gateway_url)
        await person.sign_in("Sam")
        assignment = await person.play_computer(game_pb2.GAME_SPIT, game_pb2.LEVEL_HARD)
        match_id, seat = assignment.match_id, assignment.seats[0]
        other_tab = person.watch(match_id, seat)
        await next_update(other_tab)
        player = SeatPlayer(
            person,
            match_id,
            seat,
            GAMES[game_pb2.GAME_SPIT],
            Level.HARD,
            random.Random(1),
            Pace(think_scale=1.0),
            Reconnect(),
        )
        playing = asyncio.create_task(player.play())
        try:
            half = COMMANDS // 2
            await poll_until(
                "half", lambda: player.tally.accepted >= half or limited(player), PLAY_S
            )
            await other_tab.aclose()  # the other tab is reloaded
            other_tab = person.watch(match_id, seat)
            await next_update(other_tab)
            await poll_until(
                "all", lambda: player.tally.accepted >= COMMANDS or limited(player), PLAY_S
            )
            assert not playing.done(), "the match ended early"
        finally:
            playing.cancel()
            await other_tab.aclose()
        assert limited(player) == {}, player.tally
        await person.submit(match_id, seat, RESIGN)
