"""A player's games a page at a time, newest first, of one game or of every game (the
lobby's My games), through the Ratings service over a real channel."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import grpc
import pytest

from games.registry import BID, SPIT
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common.serving import Listen, grpc_server
from services.ratings.fairness import Fairness
from services.ratings.servicer import RatingsServicer
from services.ratings.store import Store
from tests.ratings.results import void, win

NOW = 1_800_000_000.0


@pytest.fixture
async def stub(store: Store) -> AsyncIterator[ratings_pb2_grpc.RatingsAsyncStub]:
    def register(server: grpc.aio.Server) -> Sequence[str]:
        ratings_pb2_grpc.add_RatingsServicer_to_server(
            RatingsServicer(store, Fairness(store.database)), server
        )
        return ["photofinish.ratings.v1.Ratings"]

    async with (
        grpc_server(Listen("127.0.0.1", 0, 0), register) as (_, port, _health),
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield ratings_pb2_grpc.RatingsStub(channel)


async def five_matches(store: Store) -> None:
    """Ann's matches m0..m4, a minute apart: Spit and Bid alternately, m4 voided."""
    for number in range(4):
        game = SPIT if number % 2 == 0 else BID
        await store.record(win(f"m{number}", "ann", "bob", game), NOW + 60 * number)
    await store.record(void("m4", "ann", "bob"), NOW + 240)


async def test_pages_of_every_game_follow_each_other_newest_first(
    store: Store, stub: ratings_pb2_grpc.RatingsAsyncStub
) -> None:
    await five_matches(store)
    first = await stub.GetHistory(ratings_pb2.GetHistoryRequest(player_id="ann", limit=2))
    assert [e.match_id for e in first.entries] == ["m4", "m3"]
    assert [e.game for e in first.entries] == [game_pb2.GAME_SPIT, game_pb2.GAME_BID]
    assert first.more and first.game == game_pb2.GAME_UNSPECIFIED
    assert first.entries[0].verdict == ratings_pb2.VERDICT_VOID
    assert first.entries[0].void_reason == "event_loop_lag"
    second = await stub.GetHistory(
        ratings_pb2.GetHistoryRequest(player_id="ann", limit=2, offset=2)
    )
    assert [e.match_id for e in second.entries] == ["m2", "m1"] and second.more
    last = await stub.GetHistory(ratings_pb2.GetHistoryRequest(player_id="ann", limit=2, offset=4))
    assert [e.match_id for e in last.entries] == ["m0"] and not last.more


async def test_one_games_pages_hold_only_that_game(
    store: Store, stub: ratings_pb2_grpc.RatingsAsyncStub
) -> None:
    await five_matches(store)
    bid = await stub.GetHistory(
        ratings_pb2.GetHistoryRequest(player_id="ann", game=game_pb2.GAME_BID, limit=5)
    )
    assert [e.match_id for e in bid.entries] == ["m3", "m1"] and not bid.more
    assert {e.game for e in bid.entries} == {game_pb2.GAME_BID}


async def test_a_negative_offset_is_refused(stub: ratings_pb2_grpc.RatingsAsyncStub) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await stub.GetHistory(ratings_pb2.GetHistoryRequest(player_id="ann", offset=-1))
    assert error.value.code() is grpc.StatusCode.INVALID_ARGUMENT
