"""The Ratings gRPC service over a real channel: ladder order, flags, history, bad requests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from games.registry import BID, SPIT
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common.serving import Listen, grpc_server
from services.ratings.servicer import RatingsServicer
from services.ratings.store import Store
from tests.ratings.results import put, standing, void, win
from wire.grpcweb.status import DOMAIN

NOW = 1_800_000_000.0


@pytest.fixture
async def stub(store: Store) -> AsyncIterator[ratings_pb2_grpc.RatingsAsyncStub]:
    def register(server: grpc.aio.Server) -> Sequence[str]:
        ratings_pb2_grpc.add_RatingsServicer_to_server(RatingsServicer(store), server)
        return ["photofinish.ratings.v1.Ratings"]

    async with (
        grpc_server(Listen("127.0.0.1", 0, 0), register) as (_, port, _health),
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield ratings_pb2_grpc.RatingsStub(channel)


async def test_get_ladder_ranks_by_rating_games_and_id_and_flags_provisional_players(
    store: Store, stub: ratings_pb2_grpc.RatingsAsyncStub
) -> None:
    await put(
        store,
        SPIT,
        standing("ann", 1650, rd=45, games=40, wins=30),
        standing("bob", 1650, rd=109.9, games=41, wins=20),
        standing("cat", 1900, rd=300, games=2, wins=2),
        standing("dee", 1650, rd=110, games=40, wins=10),
    )
    request = ratings_pb2.GetLadderRequest(game=game_pb2.GAME_SPIT, limit=3)
    ladder = await stub.GetLadder(request)
    assert ladder.game == game_pb2.GAME_SPIT
    assert [(e.rank, e.player_id, e.provisional) for e in ladder.entries] == [
        (1, "cat", True),
        (2, "bob", False),
        (3, "ann", False),
    ]
    assert (ladder.entries[2].games, ladder.entries[2].wins, ladder.entries[2].name) == (
        40,
        30,
        "Ann",
    )


async def test_get_history_and_get_rating_report_what_results_did(
    store: Store, stub: ratings_pb2_grpc.RatingsAsyncStub
) -> None:
    await store.record(win("m1", "ann", "bob", game=BID), NOW)
    await store.record(void("m2", "ann", "bob", game=BID), NOW + 60)
    history = await stub.GetHistory(
        ratings_pb2.GetHistoryRequest(player_id="ann", game=game_pb2.GAME_BID)
    )
    assert [(e.match_id, e.verdict) for e in history.entries] == [
        ("m2", ratings_pb2.VERDICT_VOID),
        ("m1", ratings_pb2.VERDICT_WIN),
    ]
    assert history.entries[0].change == 0 and history.entries[0].void_reason == "event_loop_lag"
    assert history.entries[1].change > 0 and history.entries[1].played_unix_ms == NOW * 1000
    bid = game_pb2.GAME_BID
    rating = await stub.GetRating(ratings_pb2.GetRatingRequest(player_id="ann", game=bid))
    assert rating.rating == history.entries[1].rating_after and rating.games == 1
    newcomer = await stub.GetRating(ratings_pb2.GetRatingRequest(player_id="zed", game=bid))
    assert (newcomer.rating, newcomer.rd, newcomer.provisional, newcomer.games) == (
        1500,
        500,
        True,
        0,
    )


async def test_a_request_for_no_game_is_invalid_with_its_reason(
    stub: ratings_pb2_grpc.RatingsAsyncStub,
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await stub.GetLadder(ratings_pb2.GetLadderRequest())
    assert error.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    status = rpc_status.from_call(error.value)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    assert (info.reason, info.domain) == ("no_such_game", DOMAIN)


async def test_get_ladder_around_a_player_gives_their_page_or_not_found(
    store: Store, stub: ratings_pb2_grpc.RatingsAsyncStub
) -> None:
    await put(store, BID, *(standing(f"p{i}", 2000 - 10 * i) for i in range(9)))
    request = ratings_pb2.GetLadderRequest(game=game_pb2.GAME_BID, limit=3, around_player_id="p4")
    ladder = await stub.GetLadder(request)
    assert [(e.rank, e.player_id) for e in ladder.entries] == [(4, "p3"), (5, "p4"), (6, "p5")]
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await stub.GetLadder(
            ratings_pb2.GetLadderRequest(game=game_pb2.GAME_BID, around_player_id="zed")
        )
    assert error.value.code() is grpc.StatusCode.NOT_FOUND
    status = rpc_status.from_call(error.value)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    assert (info.reason, info.domain) == ("not_ranked", DOMAIN)
