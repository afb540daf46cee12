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
from services.ratings.fairness import Fairness
from services.ratings.servicer import RatingsServicer
from services.ratings.store import Store
from tests.ratings.results import put, standing, void, win
from wire.grpcweb.status import DOMAIN

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


def reason_of(error: grpc.aio.AioRpcError) -> tuple[grpc.StatusCode, str]:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    status.details[0].Unpack(info)
    return error.code(), info.reason


PLAYER = (("x-pf-player-id", "bob"), ("x-pf-player-name", "Bob"), ("x-pf-session-id", "s_1"))
OPERATOR = (
    ("x-pf-player-id", "ops"),
    ("x-pf-player-name", "Olga"),
    ("x-pf-session-id", "s_2"),
    ("x-pf-role", "operator"),
)


async def test_a_player_is_refused_every_operators_method_and_an_operator_is_not(
    store: Store, stub: ratings_pb2_grpc.RatingsAsyncStub
) -> None:
    await store.record(win("m1", "ann", "bob"), NOW)
    await stub.ReportOpponent(
        ratings_pb2.ReportOpponentRequest(match_id="m1", reason=ratings_pb2.REPORT_REASON_PROGRAM),
        metadata=PLAYER,
    )
    calls = (
        lambda md: stub.GetFairPlayQueue(ratings_pb2.GetFairPlayQueueRequest(), metadata=md),
        lambda md: stub.GetFairPlayCase(
            ratings_pb2.GetFairPlayCaseRequest(flag_id="x"), metadata=md
        ),
        lambda md: stub.SettleFlag(
            ratings_pb2.SettleFlagRequest(
                flag_id="x", action=ratings_pb2.FLAG_ACTION_MARK, why="because"
            ),
            metadata=md,
        ),
        lambda md: stub.GetMatchReactions(
            ratings_pb2.GetMatchReactionsRequest(match_id="m1"), metadata=md
        ),
    )
    # A player, a player who says they are an operator in another header, and nobody.
    forged = (*PLAYER, ("x-pf-roles", "operator"), ("x-pf-role", "Operator"))
    for metadata in (PLAYER, forged):
        for call in calls:
            with pytest.raises(grpc.aio.AioRpcError) as error:
                await call(metadata)
            assert reason_of(error.value) == (grpc.StatusCode.PERMISSION_DENIED, "operators_only")
    with pytest.raises(grpc.aio.AioRpcError) as nobody:
        await calls[0](())
    assert nobody.value.code() is grpc.StatusCode.UNAUTHENTICATED
    queue = await stub.GetFairPlayQueue(ratings_pb2.GetFairPlayQueueRequest(), metadata=OPERATOR)
    (flag,) = queue.flags
    assert (flag.player_id, flag.state) == ("ann", ratings_pb2.FLAG_STATE_OPEN)
    assert [(r.reason, r.count) for r in flag.reports] == [(ratings_pb2.REPORT_REASON_PROGRAM, 1)]
    settled = ratings_pb2.SettleFlagRequest(
        flag_id=flag.flag_id, action=ratings_pb2.FLAG_ACTION_MARK, why="a program"
    )
    assert (await stub.SettleFlag(settled, metadata=OPERATOR)).refunds == 1
    rating = await stub.GetRating(
        ratings_pb2.GetRatingRequest(player_id="ann", game=game_pb2.GAME_SPIT)
    )
    assert rating.barred
    with pytest.raises(grpc.aio.AioRpcError) as again:
        await stub.SettleFlag(settled, metadata=OPERATOR)
    assert reason_of(again.value) == (grpc.StatusCode.FAILED_PRECONDITION, "flag_settled")
    with pytest.raises(grpc.aio.AioRpcError) as bad:
        await stub.ReportOpponent(ratings_pb2.ReportOpponentRequest(match_id="m1"), metadata=PLAYER)
    assert reason_of(bad.value) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_report_reason")
