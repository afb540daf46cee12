"""A queued player's rating: read from a real ratings servicer, 1500 when ratings is away."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import grpc
import pytest

from games.registry import BID, SPIT
from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common.database import Database, SqliteFile
from services.common.identity import PlayerId
from services.common.serving import Listen, grpc_server
from services.matchmaking.ratings import NEWCOMER_RATING, RatingsLookup
from services.ratings import model
from services.ratings.fairness import Fairness
from services.ratings.servicer import RatingsServicer
from services.ratings.store import Store


def rated_win(match_id: str, winner: str, loser: str) -> model.Finished:
    players = (
        model.Player(model.PlayerId(winner), winner.title()),
        model.Player(model.PlayerId(loser), loser.title()),
    )
    return model.Finished(model.MatchId(match_id), BID, players, 0, True, model.Mode.ONLINE)


@pytest.fixture
async def ratings_addr(tmp_path: Path) -> AsyncIterator[str]:
    """Return the address of a Ratings service where Ann has beaten Bob at Bid."""
    database = Database(SqliteFile(tmp_path / "ratings.sqlite3"))
    await database.open()
    store = Store(database)
    await store.migrate()
    await store.record(rated_win("m1", "ann", "bob"), 1_800_000_000.0)

    def register(server: grpc.aio.Server) -> Sequence[str]:
        ratings_pb2_grpc.add_RatingsServicer_to_server(
            RatingsServicer(store, Fairness(store.database)), server
        )
        return ["photofinish.ratings.v1.Ratings"]

    async with grpc_server(Listen("127.0.0.1", 0, 0), register) as (_, port, _health):
        yield f"127.0.0.1:{port}"
    await database.close()


async def test_the_ticket_rating_is_the_players_rating_in_that_game(ratings_addr: str) -> None:
    async with grpc.aio.insecure_channel(ratings_addr) as channel:
        lookup = RatingsLookup(channel, timeout_s=5.0)
        stub = ratings_pb2_grpc.RatingsStub(channel)
        ann = await stub.GetRating(
            ratings_pb2.GetRatingRequest(player_id="ann", game=game_pb2.GAME_BID)
        )
        assert ann.rating > NEWCOMER_RATING
        assert await lookup(PlayerId("ann"), BID) == ann.rating
        assert await lookup(PlayerId("bob"), BID) < NEWCOMER_RATING
        assert await lookup(PlayerId("ann"), SPIT) == NEWCOMER_RATING
        assert await lookup(PlayerId("zed"), BID) == NEWCOMER_RATING


async def test_when_ratings_cannot_be_reached_the_player_is_queued_at_1500() -> None:
    async with grpc.aio.insecure_channel("127.0.0.1:1") as channel:
        lookup = RatingsLookup(channel, timeout_s=5.0)
        assert await lookup(PlayerId("ann"), SPIT) == NEWCOMER_RATING
