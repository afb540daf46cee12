"""Whole matches against the computer through the real stack: the pool plays its seat.

The human side is the engine's own bot on the human's view (decoded with the codec's
``view_from_proto``), driven by ``tests.bots.driver``. Bots think at 2 % of their
designed pace (``PF_BOTS_THINK_SCALE``) so a whole match takes seconds, not minutes;
nothing here asserts on speed.
"""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from clients.arena import ArenaClient
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from services.stack.stack import Stack, StackConfig, run_stack
from tests.bots.driver import Log, drive
from tests.pace import FAST_PLAY_ENV

pytestmark = pytest.mark.asyncio(loop_scope="module")

THINK_SCALE = 0.02
STACK_ENV = (
    ("PF_GATE_TIMEOUT_S", "5"),
    ("PF_BOTS_THINK_SCALE", str(THINK_SCALE)),
    *FAST_PLAY_ENV,
    ("PF_BOTS_SEED", "7"),
)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    data_dir: Path = tmp_path_factory.mktemp("stack")
    async with run_stack(StackConfig(data_dir, extra_env=STACK_ENV)) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="module")
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def human(http: aiohttp.ClientSession, stack: Stack, name: str) -> ArenaClient:
    client = ArenaClient(http, stack.gateway_url)
    await client.sign_in(name)
    return client


def pressed_by(log: Log, game: str, seat: int) -> int:
    return sum(
        1 for e in log.events(game) if e.WhichOneof("kind") == "pressed" and e.pressed.seat == seat
    )


def moves_by(log: Log, game: str, seat: int, kinds: set[str]) -> int:
    count = 0
    for event in log.events(game):
        kind = event.WhichOneof("kind")
        if kind in kinds and getattr(event, kind).seat == seat:
            count += 1
    return count


async def test_a_whole_bid_match_against_the_hard_computer_ends_with_an_outcome(
    stack: Stack, http: aiohttp.ClientSession
) -> None:
    ann = await human(http, stack, "Ann")
    match = await ann.play_computer(game_pb2.GAME_BID, game_pb2.LEVEL_HARD)
    [seat] = match.seats
    bot = 1 - seat
    assert match.player_names[bot] == "Computer (hard)"
    log = Log()
    started = time.monotonic()
    final = await drive(
        ann, match.match_id, seat, GAMES[game_pb2.GAME_BID], Level.MEDIUM, random.Random(1), log
    )
    print(f"bid: {time.monotonic() - started:.1f} s, {final.seq} steps")
    assert final.status == arbitration_pb2.STATUS_FINISHED
    assert final.outcome.termination == game_pb2.TERMINATION_CHIPS
    assert final.players[bot].bot and not final.players[seat].bot
    # The computer pressed at the gates itself, and made its own moves in turn.
    assert pressed_by(log, "bid", bot) >= 1
    moves = {"played", "drew", "bid_made", "bid_accepted", "auction_passed"}
    assert moves_by(log, "bid", bot, moves) >= 1
    assert log.refused == {}


async def test_a_whole_spit_match_against_the_easy_computer_ends_with_an_outcome(
    stack: Stack, http: aiohttp.ClientSession
) -> None:
    bea = await human(http, stack, "Bea")
    match = await bea.play_computer(game_pb2.GAME_SPIT, game_pb2.LEVEL_EASY)
    [seat] = match.seats
    bot = 1 - seat
    log = Log()
    started = time.monotonic()
    final = await drive(
        bea,
        match.match_id,
        seat,
        GAMES[game_pb2.GAME_SPIT],
        Level.HARD,
        random.Random(2),
        log,
        think_scale=THINK_SCALE,
    )
    print(f"spit: {time.monotonic() - started:.1f} s, {final.seq} steps, refused {log.refused}")
    assert final.status == arbitration_pb2.STATUS_FINISHED
    assert final.outcome.termination == game_pb2.TERMINATION_CARDS
    assert pressed_by(log, "spit", bot) >= 1
    assert moves_by(log, "spit", bot, {"played", "moved"}) >= 1
