"""The edge's limits, at their defaults, never stop a person: Spit against the hard
computer at the hard computer's own pace (about a human expert's), from an address no
limit exempts, with the match open in a second tab that is reloaded halfway."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import AsyncGenerator
from pathlib import Path

import aiohttp
import pytest

from clients.arena import ArenaClient
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect
from clients.grpcweb import CallError
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1.arbitration_pb2 import MatchUpdate
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


async def reload_tab(
    person: ArenaClient, tab: AsyncGenerator[MatchUpdate, None], match_id: str, seat: int
) -> AsyncGenerator[MatchUpdate, None]:
    """Close the tab's stream and open it again, as a reload does."""
    await tab.aclose()
    reloaded = person.watch(match_id, seat)
    await next_update(reloaded)
    return reloaded


async def one_match(person: ArenaClient, before: int, reload: bool) -> tuple[SeatPlayer, bool]:
    """Play a match against the hard computer, the second tab reloaded once the person's
    accepted commands (``before`` and this match's) reach half of ``COMMANDS`` if ``reload``;
    until they reach ``COMMANDS``, a limit is met or the match ends. Return the player and
    whether the tab was reloaded."""
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

    def reached(commands: int) -> bool:
        count = before + player.tally.accepted
        return count >= commands or bool(limited(player)) or playing.done()

    reloaded = False
    try:
        if reload:
            await poll_until("half, a limit or the end", lambda: reached(COMMANDS // 2), PLAY_S)
            if not playing.done():
                other_tab = await reload_tab(person, other_tab, match_id, seat)
                reloaded = True
        await poll_until("all, a limit or the end", lambda: reached(COMMANDS), PLAY_S)
    finally:
        playing.cancel()
        await other_tab.aclose()
    with contextlib.suppress(CallError):  # unless the computer has won it already
        await person.submit(match_id, seat, RESIGN)
    return player, reloaded


async def test_a_person_at_full_speed_in_two_tabs_with_a_reload_meets_no_limit(
    tmp_path: Path,
) -> None:
    """The person plays match after match until ``COMMANDS`` are accepted in all: the
    computer may win one first, the more so on a loaded machine, where the test's player
    is the slower of the two."""
    async with (
        run_stack(StackConfig(tmp_path)) as stack,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(FROM, 0))) as http,
    ):
        person = ArenaClient(http, stack.gateway_url)
        await person.sign_in("Sam")
        accepted, met, reloaded = 0, Counter[str](), False
        while accepted < COMMANDS and not met:
            player, reloaded_now = await one_match(person, accepted, reload=not reloaded)
            accepted += player.tally.accepted
            met.update(limited(player))
            reloaded = reloaded or reloaded_now
        assert met == Counter(), met
        assert reloaded, "the other tab was never reloaded mid-match"
