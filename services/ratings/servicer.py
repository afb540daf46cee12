"""The Ratings gRPC service: decode the request, ask the store, encode the reply."""

from __future__ import annotations

from typing import Any, NoReturn

import grpc

from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common.identity import MissingIdentity, caller, is_operator
from services.common.rejection import Rejection
from services.ratings import codec, moderation_codec
from services.ratings.errors import BadRequest, Moderation, NotRanked, RatingsError, Reason
from services.ratings.fairness import Fairness
from services.ratings.model import PlayerId
from services.ratings.moderation import Operator
from services.ratings.store import Store

Context = grpc.aio.ServicerContext[Any, Any]

# A refusal's gRPC status, by reason; any other is INVALID_ARGUMENT.
_CODES = {
    Reason.NOT_RANKED: grpc.StatusCode.NOT_FOUND,
    Reason.NO_SUCH_FLAG: grpc.StatusCode.NOT_FOUND,
    Reason.OPERATORS_ONLY: grpc.StatusCode.PERMISSION_DENIED,
    Reason.NOT_YOUR_MATCH: grpc.StatusCode.PERMISSION_DENIED,
    Reason.OWN_FLAG: grpc.StatusCode.PERMISSION_DENIED,
    Reason.NOT_ONLINE: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.FLAG_SETTLED: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.ALREADY_REPORTED: grpc.StatusCode.ALREADY_EXISTS,
    Reason.TOO_MANY_REPORTS: grpc.StatusCode.RESOURCE_EXHAUSTED,
}


class RatingsServicer(ratings_pb2_grpc.RatingsServicer):
    def __init__(self, store: Store, fairness: Fairness) -> None:
        self._store = store
        self._fairness = fairness

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
        standing, barred = await self._store.rating(player_id, game)
        return codec.encode_rating(player_id, game, standing, barred)

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

    async def ReportOpponent(
        self, request: ratings_pb2.ReportOpponentRequest, context: Context
    ) -> ratings_pb2.ReportOpponentReply:
        player = await _player(context)
        try:
            match_id, reason = moderation_codec.decode_report(request)
            await self._fairness.report(player.player_id, match_id, reason)
        except RatingsError as error:
            await abort(context, error)
        return ratings_pb2.ReportOpponentReply()

    async def GetFairPlayQueue(
        self, request: ratings_pb2.GetFairPlayQueueRequest, context: Context
    ) -> ratings_pb2.FairPlayQueue:
        await _operator(context)
        return moderation_codec.encode_queue(await self._fairness.queue())

    async def GetFairPlayCase(
        self, request: ratings_pb2.GetFairPlayCaseRequest, context: Context
    ) -> ratings_pb2.FairPlayCase:
        await _operator(context)
        try:
            found = await self._fairness.case(moderation_codec.decode_flag_id(request.flag_id))
        except RatingsError as error:
            await abort(context, error)
        return moderation_codec.encode_case(found)

    async def SettleFlag(
        self, request: ratings_pb2.SettleFlagRequest, context: Context
    ) -> ratings_pb2.SettleFlagReply:
        operator = await _operator(context)
        try:
            flag_id, action, why = moderation_codec.decode_settle(request)
            refunds = await self._fairness.settle(flag_id, action, operator, why)
        except RatingsError as error:
            await abort(context, error)
        return ratings_pb2.SettleFlagReply(refunds=refunds)

    async def GetMatchReactions(
        self, request: ratings_pb2.GetMatchReactionsRequest, context: Context
    ) -> ratings_pb2.MatchReactions:
        await _operator(context)
        try:
            match_id = moderation_codec.decode_match_id(request.match_id)
        except RatingsError as error:
            await abort(context, error)
        plays = await self._fairness.match_reactions(match_id)
        return moderation_codec.encode_reactions(match_id, plays)


async def _player(context: Context) -> Operator:
    """The caller, as the gateway named them (UNAUTHENTICATED when it did not)."""
    try:
        player = caller(context.invocation_metadata())
    except MissingIdentity as error:
        await context.abort_with_status(
            Rejection(grpc.StatusCode.UNAUTHENTICATED, "unauthenticated", error.detail).to_status()
        )
    return Operator(PlayerId(player.id), player.name)


async def _operator(context: Context) -> Operator:
    """The caller if they hold the operator role; PERMISSION_DENIED ``operators_only`` else."""
    who = await _player(context)
    if not is_operator(context.invocation_metadata()):
        await abort(context, Moderation(Reason.OPERATORS_ONLY, "for operators only"))
    return who


async def abort(context: Context, error: RatingsError) -> NoReturn:
    """End the call with the error's status code and its reason, as every service does."""
    code = _CODES.get(error.reason, grpc.StatusCode.INVALID_ARGUMENT)
    await context.abort_with_status(Rejection(code, error.reason.value, error.detail).to_status())
