"""Deleted accounts in the standings, end to end: the tournaments process as it wires itself
(``TournamentsService.lifespan`` and its gRPC server) on a real nats-server, told of each
deletion by PF_ACCOUNTS messages as the accounts service publishes them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import grpc
import nats
import pytest
from nats.aio.client import Client
from nats.js import JetStreamContext, api

from games.registry import BID
from photofinish.tournaments.v1 import tournaments_pb2 as pb
from photofinish.tournaments.v1 import tournaments_pb2_grpc
from services.common import deletions
from services.common.database import Target
from services.common.identity import PlayerId
from services.common.serving import Listen, grpc_server
from services.stack.natsd import NatsServer
from services.tournaments.config import Config
from services.tournaments.director import wall_ms
from services.tournaments.model import (
    Entrant,
    GameStatus,
    Status,
    Tournament,
    TournamentGame,
    TournamentId,
)
from services.tournaments.service import TournamentsService
from wire.subjects import ACCOUNTS_DELETED, ACCOUNTS_STREAM, TOURNAMENTS_CONSUMER

WAIT_S = 20.0
TID = TournamentId("t1")
ANN, BOB, GUS = PlayerId("a_ann"), PlayerId("a_bob"), PlayerId("g_gus")
LISTEN = Listen("127.0.0.1", 0, 0, 0.1)


@pytest.fixture
async def service(target: Target, nats_server: NatsServer) -> AsyncIterator[TournamentsService]:
    """The process's parts as it starts them, with a casual tournament Bob won a game in."""
    service = TournamentsService(Config(LISTEN, nats_server.url, target, ack_wait_s=1.0))
    async with service.lifespan():
        store = service.store
        day_ahead_ms = wall_ms() + 24 * 3600 * 1000  # upcoming: the director pairs nobody
        t = Tournament(TID, "Arena", BID, False, day_ahead_ms, 60, Status.UPCOMING, "Bob", BOB)
        await store.create(t, 0)
        await store.join(TID, Entrant(ANN, "Ann", 1))
        await store.join(TID, Entrant(BOB, "Bob", 2))
        await store.join(TID, Entrant(GUS, "Gus", 3, guest=True))
        await store.add_game(TID, TournamentGame("m1", (ANN, BOB), 10))
        await store.record_result("m1", GameStatus.FINISHED, 1, 20)
        yield service


@pytest.fixture
async def connection(nats_server: NatsServer) -> AsyncIterator[Client]:
    connection = await nats.connect(nats_server.url)
    yield connection
    await connection.close()


@pytest.fixture
def js(connection: Client) -> JetStreamContext:
    return connection.jetstream()


async def publish(js: JetStreamContext, data: bytes, msg_id: str) -> None:
    await js.publish(ACCOUNTS_DELETED, data, headers={"Nats-Msg-Id": msg_id})


async def settled(js: JetStreamContext, handled: int) -> api.ConsumerInfo:
    """Return the consumer's state once ``handled`` messages are acked or terminated."""
    async with asyncio.timeout(WAIT_S):
        while True:
            info: api.ConsumerInfo = await js.consumer_info(ACCOUNTS_STREAM, TOURNAMENTS_CONSUMER)
            floor = info.ack_floor.stream_seq if info.ack_floor else 0
            if floor >= handled and not info.num_ack_pending:
                return info
            await asyncio.sleep(0.02)


@pytest.fixture
async def stub(service: TournamentsService) -> AsyncIterator[Any]:
    """A client of the service's own gRPC server."""
    async with (
        grpc_server(LISTEN, service.register) as (_, port, _),
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield tournaments_pb2_grpc.TournamentsStub(channel)


async def standings(stub: Any) -> list[pb.Standing]:
    record = await stub.GetTournament(pb.GetTournamentRequest(tournament_id=TID))
    return list(record.standings.standings)


async def test_a_deletion_on_the_stream_blanks_the_name_and_keeps_the_results(
    stub: Any, js: JetStreamContext
) -> None:
    before = await standings(stub)
    assert [(s.name, s.guest, s.deleted) for s in before] == [
        ("Bob", False, False),
        ("Ann", False, False),
        ("Gus", True, False),
    ]

    await publish(js, deletions.encode(BOB, 1_000), BOB)
    await settled(js, 1)

    after = await standings(stub)
    assert [(s.player_id, s.name, s.guest, s.deleted) for s in after] == [
        (BOB, "", False, True),
        (ANN, "Ann", False, False),
        (GUS, "Gus", True, False),
    ]
    # Withdrawn from the tournament, which is not finished: a deleted account plays no more.
    assert [s.withdrawn for s in after] == [True, False, False]
    for line in (before[0], after[0]):
        line.name, line.deleted, line.withdrawn = "", False, False
    assert after == before  # points, games, rank and scoresheet as they were


async def test_malformed_deletions_are_terminated_and_the_next_one_still_counts(
    service: TournamentsService, connection: Client, js: JetStreamContext
) -> None:
    terminated = await connection.subscribe(
        f"$JS.EVENT.ADVISORY.CONSUMER.MSG_TERMINATED.{ACCOUNTS_STREAM}.{TOURNAMENTS_CONSUMER}"
    )
    await connection.flush()
    await publish(js, b"\xff\xff not a protobuf", "junk")
    await publish(js, deletions.encode("", 1_000), "nobody")
    await publish(js, deletions.encode(BOB, 1_000), BOB)
    info = await settled(js, 3)
    assert (info.num_pending, info.num_redelivered) == (0, 0)
    advisories = [json.loads((await terminated.next_msg(WAIT_S)).data) for _ in range(2)]
    assert sorted(a["stream_seq"] for a in advisories) == [1, 2]
    entrants = {e.player_id: e for e in await service.store.entrants(TID)}
    assert (entrants[BOB].name, entrants[BOB].deleted) == ("", True)
    assert entrants[ANN].name == "Ann"


async def test_the_same_deletion_again_changes_nothing(
    service: TournamentsService, stub: Any, js: JetStreamContext
) -> None:
    await publish(js, deletions.encode(BOB, 1_000), BOB)
    await settled(js, 1)
    once = await standings(stub)
    # Published again under another message id, so the stream's deduplication lets it by.
    await publish(js, deletions.encode(BOB, 2_000), f"{BOB}-again")
    await settled(js, 2)
    assert await standings(stub) == once
    assert [e.name for e in await service.store.entrants(TID)] == ["Ann", "", "Gus"]
