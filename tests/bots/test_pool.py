"""The bot pool as a process in the real stack: naming bots, surviving a gateway restart,
and stopping cleanly on SIGTERM with seats in play.

Tests that stop a process start it again, so they hold in any order (xdist splits files).
"""

from __future__ import annotations

import json
import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import nats
import pytest
import pytest_asyncio

from clients.arena import ArenaClient
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import game_pb2
from services.stack.processes import start_child
from services.stack.stack import Stack, StackConfig, run_stack
from tests.bots.driver import Log, drive
from tests.pace import FAST_PLAY_ENV
from tests.waiting import poll_until
from wire import subjects

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


async def ask(stack: Stack, payload: bytes) -> events_pb2.BotReply:
    nc = await nats.connect(stack.nats_url)
    try:
        reply = await nc.request(subjects.BOTS_REQUEST, payload, timeout=REQUEST_TIMEOUT_S)
    finally:
        await nc.close()
    return events_pb2.BotReply.FromString(reply.data)


def bots_log(data_dir: Path) -> list[dict[str, object]]:
    path = data_dir / "logs" / "bots.log"
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]


def logged(data_dir: Path, msg: str, match_id: str) -> list[dict[str, object]]:
    """Return the pool's log entries saying ``msg`` about ``match_id``."""
    return [e for e in bots_log(data_dir) if e["msg"] == msg and e.get("match") == match_id]


async def test_a_request_names_a_fresh_computer_player(stack: Stack) -> None:
    request = events_pb2.BotRequest(game=game_pb2.GAME_SPIT, level=game_pb2.LEVEL_MEDIUM)
    first = await ask(stack, request.SerializeToString())
    second = await ask(stack, request.SerializeToString())
    assert first.player.name == "Computer (medium)" and first.player.bot
    assert first.player.player_id and second.player.player_id != first.player.player_id


@pytest.mark.parametrize(
    "payload",
    [
        b"\xff\xff not a message",
        events_pb2.BotRequest(game=game_pb2.GAME_BID).SerializeToString(),  # no level
        events_pb2.BotRequest(level=game_pb2.LEVEL_EASY).SerializeToString(),  # no game
        events_pb2.BotRequest(
            game=game_pb2.GAME_BID, level=game_pb2.Level.ValueType(9)
        ).SerializeToString(),
    ],
)
async def test_a_request_the_pool_cannot_serve_is_answered_at_once_with_no_player(
    stack: Stack, payload: bytes
) -> None:
    assert await ask(stack, payload) == events_pb2.BotReply()


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
    old = stack.children["gateway"]
    port = old.ports["http"]
    lost_before = len(logged(data_dir, "watch lost; reconnecting", match_id))
    await old.stop()
    env = {**old.env, "PF_HTTP_PORT": str(port)}  # its NATS user and caller token too
    await poll_until(
        f"the pool's seat in {match_id} notices the gateway is gone",
        lambda: len(logged(data_dir, "watch lost; reconnecting", match_id)) > lost_before,
    )
    logs = data_dir / "logs"
    stack.children["gateway"] = await start_child("gateway", "services.gateway", env, logs)


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
    env = {"NATS_URL": stack.nats_url, "PF_GATEWAY_URL": stack.gateway_url, **dict(STACK_ENV)}
    stack.children["bots"] = await start_child("bots", "clients.bots", env, data_dir / "logs")
