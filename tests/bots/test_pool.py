"""The bot pool as a process in the real stack: naming bots, surviving a gateway restart,
and stopping cleanly on SIGTERM with seats in play.

To ask a pool for bots directly, a test stands in for matchmaking: it serves
``BotPools.Serve`` itself and starts a second pool process that holds its stream there,
signing its bots in at the stack's real gateway.

Tests that stop a process start it again, so they hold in any order (xdist splits files).
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import grpc
import pytest
import pytest_asyncio

from clients.arena import ArenaClient
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import bots_pb2, bots_pb2_grpc
from services.stack.processes import start_child
from services.stack.stack import Stack, StackConfig, run_stack
from tests.bots.driver import Log, drive
from tests.pace import FAST_PLAY_ENV
from tests.waiting import poll_until
from wire.metadata import CALLER_TOKEN

pytestmark = pytest.mark.asyncio(loop_scope="module")

TOKEN_KEY = "ab" * 32  # fixed, so tokens outlive a gateway restart
STACK_ENV = (("PF_GATE_TIMEOUT_S", "5"), ("PF_BOTS_THINK_SCALE", "0.02"), *FAST_PLAY_ENV)
REQUEST_TIMEOUT_S = 5.0
NO_SUCH_LEVEL = game_pb2.Level.ValueType(9)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pool")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def stack(data_dir: Path) -> AsyncIterator[Stack]:
    config = StackConfig(data_dir, token_key=TOKEN_KEY, extra_env=STACK_ENV)
    async with run_stack(config) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="module")
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


class Matchmaking(bots_pb2_grpc.BotPoolsServicer):
    """Matchmaking's door for the pools, in the test: orders sent by hand, answers kept."""

    def __init__(self) -> None:
        self.orders: asyncio.Queue[bots_pb2.PoolOrder] = asyncio.Queue()
        self.answers: asyncio.Queue[bots_pb2.PoolAnswer] = asyncio.Queue()
        self.tokens: list[str] = []
        self.asked = 0

    async def Serve(
        self, request_iterator: AsyncIterator[bots_pb2.PoolAnswer], context: Any
    ) -> AsyncIterator[bots_pb2.PoolOrder]:
        self.tokens.append(dict(context.invocation_metadata())[CALLER_TOKEN])
        await context.send_initial_metadata(())  # as matchmaking does: counted in
        reader = asyncio.create_task(self._read(request_iterator))
        try:
            while True:
                yield await self.orders.get()
        finally:
            reader.cancel()

    async def _read(self, answers: AsyncIterator[bots_pb2.PoolAnswer]) -> None:
        async for answer in answers:
            await self.answers.put(answer)

    async def ask(self, request: events_pb2.BotRequest) -> events_pb2.BotReply:
        [reply] = await self.ask_at_once([request])
        return reply

    async def ask_at_once(self, requests: list[events_pb2.BotRequest]) -> list[events_pb2.BotReply]:
        """Send every order at once; return the answers in the orders' order."""
        first = self.asked + 1
        for request in requests:
            self.asked += 1
            await self.orders.put(bots_pb2.PoolOrder(ask=self.asked, bot=request))
        answers: dict[int, events_pb2.BotReply] = {}
        async with asyncio.timeout(REQUEST_TIMEOUT_S):
            while len(answers) < len(requests):
                answer = await self.answers.get()
                answers[answer.ask] = answer.reply
        return [answers[ask] for ask in range(first, self.asked + 1)]


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def matchmaking(stack: Stack, data_dir: Path) -> AsyncIterator[Matchmaking]:
    """A test's own matchmaking door, with a second pool process holding its stream."""
    door = Matchmaking()
    server = grpc.aio.server()
    bots_pb2_grpc.add_BotPoolsServicer_to_server(door, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    env = {
        "PF_MATCHMAKING_ADDR": f"127.0.0.1:{port}",
        "PF_CALLER_TOKEN": "the-second-pool",
        "PF_GATEWAY_URL": stack.gateway_url,
        **dict(STACK_ENV),
    }
    pool = await start_child("bots-2", "clients.bots", env, data_dir / "logs")
    yield door
    await pool.stop()
    await server.stop(grace=None)


async def test_a_pool_holds_its_stream_with_its_own_caller_token(
    matchmaking: Matchmaking,
) -> None:
    assert matchmaking.tokens == ["the-second-pool"]


async def test_a_request_names_a_fresh_computer_player(matchmaking: Matchmaking) -> None:
    request = events_pb2.BotRequest(game=game_pb2.GAME_SPIT, level=game_pb2.LEVEL_MEDIUM)
    first = await matchmaking.ask(request)
    second = await matchmaking.ask(request)
    assert first.player.name == "Computer (medium)" and first.player.bot
    assert first.player.player_id and second.player.player_id != first.player.player_id


async def test_orders_at_once_are_all_answered(matchmaking: Matchmaking) -> None:
    # Those it cannot serve are answered in the same instant: the answers' writes meet.
    bid = events_pb2.BotRequest(game=game_pb2.GAME_BID, level=game_pb2.LEVEL_EASY)
    replies = await matchmaking.ask_at_once([bid, events_pb2.BotRequest()] * 10)
    assert len({reply.player.player_id for reply in replies[::2]}) == 10
    assert replies[1::2] == [events_pb2.BotReply()] * 10
    assert matchmaking.tokens == ["the-second-pool"]  # one stream all along


@pytest.mark.parametrize(
    "request_",
    [
        events_pb2.BotRequest(game=game_pb2.GAME_BID),  # no level
        events_pb2.BotRequest(level=game_pb2.LEVEL_EASY),  # no game
        events_pb2.BotRequest(game=game_pb2.GAME_BID, level=NO_SUCH_LEVEL),
    ],
    ids=["no level", "no game", "unknown level"],
)
async def test_a_request_the_pool_cannot_serve_is_answered_at_once_with_no_player(
    matchmaking: Matchmaking, request_: events_pb2.BotRequest
) -> None:
    assert await matchmaking.ask(request_) == events_pb2.BotReply()


def bots_log(data_dir: Path) -> list[dict[str, object]]:
    path = data_dir / "logs" / "bots.log"
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]


def logged(data_dir: Path, msg: str, match_id: str) -> list[dict[str, object]]:
    """Return the pool's log entries saying ``msg`` about ``match_id``."""
    return [e for e in bots_log(data_dir) if e["msg"] == msg and e.get("match") == match_id]


async def test_a_gateway_restart_mid_match_is_ridden_out(
    stack: Stack, data_dir: Path, http: aiohttp.ClientSession
) -> None:
    ann = ArenaClient(http, stack.gateway_url)
    await ann.sign_in("Ann")
    match = await ann.play_computer(game_pb2.GAME_BID, game_pb2.LEVEL_EASY)
    [seat] = match.seats
    game, rng, log = GAMES[game_pb2.GAME_BID], random.Random(3), Log()

    def settled(update: arbitration_pb2.MatchUpdate) -> bool:
        return update.view.bid.HasField("last_settlement")

    await drive(ann, match.match_id, seat, game, Level.MEDIUM, rng, log, stop=settled)
    await restart_gateway(stack, data_dir, match.match_id)
    final = await drive(ann, match.match_id, seat, game, Level.MEDIUM, rng, log)
    assert final.status == arbitration_pb2.STATUS_FINISHED
    assert final.outcome.termination == game_pb2.TERMINATION_CHIPS
    assert logged(data_dir, "watch lost; reconnecting", match.match_id)


async def restart_gateway(stack: Stack, data_dir: Path, match_id: str) -> None:
    """Stop the gateway and, once the pool's seat in ``match_id`` has lost its watch, start
    it again on the same port (the pool's URL stays valid)."""
    lost_before = len(logged(data_dir, "watch lost; reconnecting", match_id))
    await stack.stop("gateway")
    await poll_until(
        f"the pool's seat in {match_id} notices the gateway is gone",
        lambda: len(logged(data_dir, "watch lost; reconnecting", match_id)) > lost_before,
    )
    await stack.start_again("gateway")  # its NATS user, caller token and ports too


async def test_sigterm_with_seats_in_play_stops_the_pool_cleanly(
    stack: Stack, data_dir: Path, http: aiohttp.ClientSession
) -> None:
    bea = ArenaClient(http, stack.gateway_url)
    await bea.sign_in("Bea")
    match = await bea.play_computer(game_pb2.GAME_SPIT, game_pb2.LEVEL_HARD)
    await poll_until(
        f"a bot is seated in {match.match_id}",
        lambda: logged(data_dir, "bot seated", match.match_id),
    )
    assert await stack.children["bots"].stop(signal.SIGTERM) == 0
    text = (data_dir / "logs" / "bots.log").read_text()
    assert "STOPPED bots" in text and "Traceback" not in text
    old = stack.children["bots"]
    stack.children["bots"] = await start_child("bots", "clients.bots", old.env, data_dir / "logs")
