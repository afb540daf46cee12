"""Deleted accounts on the ladders and in history, end to end: the ratings process as it
wires itself (``RatingsService.lifespan`` and its gRPC server) on a real nats-server, told
of each deletion by PF_ACCOUNTS messages as the accounts service publishes them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import grpc
import nats
import pytest
from nats.aio.client import Client
from nats.js import JetStreamContext, api

from games.registry import BID
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common import deletions
from services.common.database import Target
from services.common.serving import Listen, grpc_server
from services.ratings.config import Config
from services.ratings.model import PlayerId
from services.ratings.service import RatingsService
from services.stack.natsd import NatsServer
from tests.ratings.results import publish, win
from tests.waiting import poll_until
from wire.subjects import ACCOUNTS_DELETED, ACCOUNTS_STREAM, RATINGS_CONSUMER

WAIT_S = 20.0
NOW = 1_700_000_000.0  # before any result the stream stamps now
ANN, BOB, GUS = PlayerId("a_ann"), PlayerId("a_bob"), PlayerId("g_gus")
SPIT = game_pb2.GAME_SPIT
LISTEN = Listen("127.0.0.1", 0, 0, 0.1)


@pytest.fixture
async def service(target: Target, nats_server: NatsServer) -> AsyncIterator[RatingsService]:
    """The process's parts as it starts them, with Ann's rated win over Bob, a casual game
    of Gus (a guest) and a rated Bid game Gus lost to Bob before rated play needed an
    account."""
    config = Config(LISTEN, nats_server.url, target, ack_wait_s=1.0, idle_poll_s=0.1)
    service = RatingsService(config)
    async with service.lifespan():
        await service.store.record(win("m1", ANN, BOB), NOW)
        await service.store.record(win("m2", GUS, ANN, rated=False), NOW + 1)
        await service.store.record(win("m3", BOB, GUS, game=BID), NOW + 2)
        yield service


@pytest.fixture
async def connection(nats_server: NatsServer) -> AsyncIterator[Client]:
    connection = await nats.connect(nats_server.url)
    yield connection
    await connection.close()


@pytest.fixture
def js(connection: Client) -> JetStreamContext:
    return connection.jetstream()


@pytest.fixture
async def stub(service: RatingsService) -> AsyncIterator[ratings_pb2_grpc.RatingsAsyncStub]:
    """A client of the service's own gRPC server."""
    async with (
        grpc_server(LISTEN, service.register) as (_, port, _),
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield ratings_pb2_grpc.RatingsStub(channel)


async def publish_deletion(js: JetStreamContext, data: bytes, msg_id: str) -> None:
    """Publish as the accounts service does: the player id as ``Nats-Msg-Id``."""
    await js.publish(ACCOUNTS_DELETED, data, headers={"Nats-Msg-Id": msg_id})


async def settled(js: JetStreamContext, handled: int) -> api.ConsumerInfo:
    """Return the consumer's state once ``handled`` deletions are acked or terminated."""

    async def done() -> api.ConsumerInfo | None:
        info = await js.consumer_info(ACCOUNTS_STREAM, RATINGS_CONSUMER)
        floor = info.ack_floor.stream_seq if info.ack_floor else 0
        return info if floor >= handled and not info.num_ack_pending else None

    return await poll_until(f"{handled} deletions handled", done, WAIT_S)


async def ladder(
    stub: ratings_pb2_grpc.RatingsAsyncStub, game: game_pb2.Game.ValueType = SPIT
) -> list[ratings_pb2.LadderEntry]:
    return list((await stub.GetLadder(ratings_pb2.GetLadderRequest(game=game))).entries)


async def history(
    stub: ratings_pb2_grpc.RatingsAsyncStub, player_id: str
) -> list[ratings_pb2.HistoryEntry]:
    request = ratings_pb2.GetHistoryRequest(player_id=player_id)
    return list((await stub.GetHistory(request)).entries)


async def test_a_deletion_on_the_stream_blanks_the_name_and_keeps_the_ratings(
    stub: ratings_pb2_grpc.RatingsAsyncStub, js: JetStreamContext
) -> None:
    before = await ladder(stub)
    assert [(e.player_id, e.name, e.guest, e.deleted) for e in before] == [
        (ANN, "A_Ann", False, False),
        (BOB, "A_Bob", False, False),
    ]
    bid = await ladder(stub, game_pb2.GAME_BID)
    assert [(e.player_id, e.guest) for e in bid] == [(BOB, False), (GUS, True)]
    ann_before = await history(stub, ANN)
    assert [(x.opponent_id, x.opponent_guest, x.opponent_deleted) for x in ann_before] == [
        (GUS, True, False),
        (BOB, False, False),
    ]

    await publish_deletion(js, deletions.encode(BOB, 1_000), BOB)
    await settled(js, 1)

    after = await ladder(stub)
    assert [(e.player_id, e.name, e.deleted) for e in after] == [
        (ANN, "A_Ann", False),
        (BOB, "", True),
    ]
    before[1].name, before[1].deleted = "", True
    assert after == before  # rank, rating, RD, games and wins as they were
    assert [(e.name, e.deleted) for e in await ladder(stub, game_pb2.GAME_BID)] == [
        ("", True),
        ("G_Gus", False),
    ]
    ann_before[1].opponent_name, ann_before[1].opponent_deleted = "", True
    assert await history(stub, ANN) == ann_before
    # Bob's own lines keep his opponents' names: they are not deleted.
    assert [x.opponent_name for x in await history(stub, BOB)] == ["G_Gus", "A_Ann"]


async def test_a_result_of_a_match_played_on_past_the_deletion_is_written_blank(
    stub: ratings_pb2_grpc.RatingsAsyncStub, js: JetStreamContext
) -> None:
    await publish_deletion(js, deletions.encode(BOB, 1_000), BOB)
    await settled(js, 1)
    await publish(js, win("m4", BOB, ANN))

    async def counted() -> list[ratings_pb2.HistoryEntry] | None:
        lines = await history(stub, ANN)
        return lines if len(lines) == 3 else None

    newest = (await poll_until("the late result counted", counted, WAIT_S))[0]
    assert (newest.match_id, newest.opponent_name, newest.opponent_deleted) == ("m4", "", True)
    bob = next(e for e in await ladder(stub) if e.player_id == BOB)
    assert (bob.name, bob.deleted, bob.games) == ("", True, 2)


async def test_malformed_deletions_are_terminated_and_the_next_one_still_counts(
    service: RatingsService, connection: Client, js: JetStreamContext
) -> None:
    terminated = await connection.subscribe(
        f"$JS.EVENT.ADVISORY.CONSUMER.MSG_TERMINATED.{ACCOUNTS_STREAM}.{RATINGS_CONSUMER}"
    )
    await connection.flush()
    await publish_deletion(js, b"\xff\xff not a protobuf", "junk")
    await publish_deletion(js, deletions.encode("", 1_000), "nobody")
    await publish_deletion(js, deletions.encode("a_never_rated", 1_000), "a_never_rated")
    await publish_deletion(js, deletions.encode(BOB, 1_000), BOB)
    info = await settled(js, 4)
    assert (info.num_pending, info.num_redelivered) == (0, 0)
    advisories = [json.loads((await terminated.next_msg(WAIT_S)).data) for _ in range(2)]
    assert sorted(a["stream_seq"] for a in advisories) == [1, 2]
    bob = await service.store.standing(BOB, BID)
    assert bob is not None and (bob.name, bob.deleted) == ("", True)
    gone = await service.store.database.run(
        lambda s: s.rows("SELECT player_id FROM deleted_players ORDER BY player_id")
    )
    assert [row[0] for row in gone] == ["a_bob", "a_never_rated"]
    # Nothing came back after ack_wait: each was acked or terminated for good.
    await asyncio.sleep(1.5)
    info = await js.consumer_info(ACCOUNTS_STREAM, RATINGS_CONSUMER)
    assert (info.num_ack_pending, info.num_redelivered) == (0, 0)
