"""The Ratings gRPC service: decode the request, ask the store, encode the reply."""

from __future__ import annotations

from typing import Any, NoReturn

import grpc

from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common.rejection import Rejection
from services.ratings import codec
from services.ratings.errors import BadRequest, NotRanked, RatingsError
from services.ratings.store import Store


class RatingsServicer(ratings_pb2_grpc.RatingsServicer):
    def __init__(self, store: Store) -> None:
        self._store = store

    async def GetLadder(
        self,
        request: ratings_pb2.GetLadderRequest,
        context: grpc.aio.ServicerContext[ratings_pb2.GetLadderRequest, ratings_pb2.Ladder],
    ) -> ratings_pb2.Ladder:
        try:
            game, limit, around = codec.decode_ladder_request(request)
            if around is None:
                entries = await self._store.ladder(game, limit)
            else:
                entries = await self._store.ladder_around(game, around, limit)
        except (BadRequest, NotRanked) as error:
            await abort(context, error)
        return codec.encode_ladder(game, entries)

    async def GetHistory(
        self,
        request: ratings_pb2.GetHistoryRequest,
        context: grpc.aio.ServicerContext[ratings_pb2.GetHistoryRequest, ratings_pb2.History],
    ) -> ratings_pb2.History:
        try:
            player_id, game, limit, offset = codec.decode_history_request(request)
        except BadRequest as error:
            await abort(context, error)
        # One line past the page says whether older ones follow.
        lines = await self._store.history(player_id, game, limit + 1, offset)
        return codec.encode_history(player_id, game, lines[:limit], more=len(lines) > limit)

    async def GetRating(
        self,
        request: ratings_pb2.GetRatingRequest,
        context: grpc.aio.ServicerContext[ratings_pb2.GetRatingRequest, ratings_pb2.PlayerRating],
    ) -> ratings_pb2.PlayerRating:
        try:
            player_id, game = codec.decode_rating_request(request)
        except BadRequest as error:
            await abort(context, error)
        standing = await self._store.standing(player_id, game)
        return codec.encode_rating(player_id, game, standing)

    async def GetProfile(
        self,
        request: ratings_pb2.GetProfileRequest,
        context: grpc.aio.ServicerContext[ratings_pb2.GetProfileRequest, ratings_pb2.Profile],
    ) -> ratings_pb2.Profile:
        try:
            player_id = codec.decode_profile_request(request)
        except BadRequest as error:
            await abort(context, error)
        return codec.encode_profile(await self._store.profile(player_id))


async def abort(context: grpc.aio.ServicerContext[Any, Any], error: RatingsError) -> NoReturn:
    """End the call with the error's status code and its reason, as every service does."""
    code = grpc.StatusCode.INVALID_ARGUMENT
    if isinstance(error, NotRanked):
        code = grpc.StatusCode.NOT_FOUND
    await context.abort_with_status(Rejection(code, error.reason.value, error.detail).to_status())
