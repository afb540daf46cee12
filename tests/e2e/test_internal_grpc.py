"""The services' own gRPC ports serve the services that call them, and nobody else.

An attack from a process on the same network: a call with no caller token, a wrong one,
or another service's, is refused; a player's identity in metadata is believed from the
gateway alone. (Before, arbitration's GetUpdate gave a seat's hand to anyone who sent an
``x-pf-player-id`` header.) Health checks stay open: probes make them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import pytest_asyncio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from photofinish.accounts.v1 import accounts_pb2
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import bots_pb2_grpc
from photofinish.ratings.v1 import ratings_pb2
from services.stack.stack import Stack, StackConfig, run_stack

pytestmark = pytest.mark.asyncio(loop_scope="module")

TOKEN = "x-pf-caller-token"
AS_ANN = (("x-pf-player-id", "ann"), ("x-pf-player-name", "Ann"))
# One method of each service, with a request it would answer for the gateway.
METHODS = {
    "arbitration": (
        "/photofinish.arbitration.v1.Arbitration/GetUpdate",
        arbitration_pb2.GetUpdateRequest(match_id="m1", seat=0).SerializeToString(),
    ),
    "matchmaking": ("/photofinish.matchmaking.v1.Matchmaking/PlayHotSeat", b""),
    "ratings": (
        "/photofinish.ratings.v1.Ratings/GetLadder",
        ratings_pb2.GetLadderRequest(game=game_pb2.GAME_SPIT).SerializeToString(),
    ),
    "tournaments": ("/photofinish.tournaments.v1.Tournaments/ListTournaments", b""),
    "rules": ("/photofinish.rules.v1.Rules/LegalCommands", b""),
    "accounts": (
        "/photofinish.accounts.v1.Accounts/ListDevices",
        accounts_pb2.ListDevicesRequest(player_id="a_ann").SerializeToString(),
    ),
}


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def stack(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stack]:
    config = StackConfig(Path(tmp_path_factory.mktemp("stack")), with_bots=True)
    async with run_stack(config) as running:
        yield running


def token_of(stack: Stack, caller: str) -> str:
    return stack.children[caller].env["PF_CALLER_TOKEN"]


async def call(
    stack: Stack, service: str, metadata: tuple[tuple[str, str], ...]
) -> tuple[grpc.StatusCode, str]:
    """Return the status code and details of one raw call to ``service``'s method."""
    path, request = METHODS[service]
    async with grpc.aio.insecure_channel(stack.address(service)) as channel:
        try:
            method: Any = channel.unary_unary(path)  # raw bytes in and out
            await method(request, metadata=metadata, timeout=10)
        except grpc.aio.AioRpcError as error:
            return error.code(), error.details() or ""
    return grpc.StatusCode.OK, ""


@pytest.mark.parametrize("service", sorted(METHODS))
async def test_a_call_without_a_known_caller_token_is_refused(stack: Stack, service: str) -> None:
    right = token_of(stack, "gateway")
    wrong = right[:-1] + ("1" if right.endswith("0") else "0")  # always one character off
    for metadata in (AS_ANN, ((TOKEN, wrong), *AS_ANN), ((TOKEN, ""),)):
        code, details = await call(stack, service, metadata)
        assert code == grpc.StatusCode.UNAUTHENTICATED, (service, metadata[0][0], details)
        assert details.startswith("unknown_caller")


async def test_the_issue_s_attack_reads_no_hand_from_arbitration(stack: Stack) -> None:
    code, details = await call(stack, "arbitration", AS_ANN)
    assert (code, details.split(":")[0]) == (grpc.StatusCode.UNAUTHENTICATED, "unknown_caller")


async def test_matchmaking_s_token_opens_ratings_alone_and_carries_no_identity(
    stack: Stack,
) -> None:
    matchmaking = ((TOKEN, token_of(stack, "matchmaking")),)
    assert (await call(stack, "ratings", matchmaking))[0] == grpc.StatusCode.OK
    code, details = await call(stack, "ratings", (*matchmaking, *AS_ANN))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    assert details.startswith("identity_from_gateway_only")
    for service in ("arbitration", "matchmaking", "tournaments", "rules"):
        assert (await call(stack, service, matchmaking))[0] == grpc.StatusCode.UNAUTHENTICATED


async def test_the_gateway_s_token_is_believed_with_an_identity(stack: Stack) -> None:
    gateway = ((TOKEN, token_of(stack, "gateway")), *AS_ANN)
    code, _ = await call(stack, "ratings", gateway)
    assert code == grpc.StatusCode.OK
    code, details = await call(stack, "arbitration", gateway)
    assert code == grpc.StatusCode.NOT_FOUND, details  # past the check: no match m1


@pytest.mark.parametrize("service", sorted(METHODS))
async def test_health_checks_need_no_token(stack: Stack, service: str) -> None:
    async with grpc.aio.insecure_channel(stack.address(service)) as channel:
        stub: Any = health_pb2_grpc.HealthStub(channel)
        reply = await stub.Check(health_pb2.HealthCheckRequest())
    assert reply.status == health_pb2.HealthCheckResponse.SERVING


async def test_the_bot_pools_door_is_for_the_pools_token_alone(stack: Stack) -> None:
    as_bots = ((TOKEN, token_of(stack, "bots")),)
    as_gateway = ((TOKEN, token_of(stack, "gateway")),)
    assert await serve_bots(stack, as_bots) == grpc.StatusCode.OK
    assert await serve_bots(stack, as_gateway) == grpc.StatusCode.PERMISSION_DENIED
    assert await serve_bots(stack, ()) == grpc.StatusCode.UNAUTHENTICATED


async def test_the_pools_token_opens_nothing_else(stack: Stack) -> None:
    as_bots = ((TOKEN, token_of(stack, "bots")),)
    for service in METHODS:
        code, details = await call(stack, service, as_bots)
        expected = ("not_for_this_caller", grpc.StatusCode.PERMISSION_DENIED)
        if service != "matchmaking":  # the other services do not know the pool at all
            expected = ("unknown_caller", grpc.StatusCode.UNAUTHENTICATED)
        assert (details.split(":")[0], code) == expected, service


async def serve_bots(stack: Stack, metadata: tuple[tuple[str, str], ...]) -> grpc.StatusCode:
    """Return how matchmaking answers a pool's stream opened with ``metadata``: OK once it
    has counted the pool in (its headers came), else the refusal's code."""
    async with grpc.aio.insecure_channel(stack.address("matchmaking")) as channel:
        call = bots_pb2_grpc.BotPoolsStub(channel).Serve(metadata=metadata, timeout=10)
        try:
            await call.initial_metadata()
            if call.done():
                return await call.code()
            return grpc.StatusCode.OK
        finally:
            call.cancel()
