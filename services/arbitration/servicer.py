"""The Arbitration gRPC service: Submit, GetUpdate, GetMatchLog and GetReplay, handed on.

The gateway sends its Submits over NATS (``submits``); the gRPC Submit takes a command in
the same way, one call at a time.
"""

from __future__ import annotations

import asyncio

import grpc

from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc, log_pb2, replay_pb2
from services.arbitration import spectator_view, whole_views
from services.arbitration.intake import seated, take_in
from services.arbitration.matches import Matches
from services.arbitration.matchlog.reader import LogReader
from services.arbitration.publisher import build_update
from services.arbitration.refusals import Reason, refuse
from services.arbitration.replays import Replays
from services.common.futures import settling
from services.common.identity import is_operator, player_id_of, received_ns_of
from services.common.rejection import Rejection
from services.common.watching import SPECTATORS


class ArbitrationServicer(arbitration_pb2_grpc.ArbitrationServicer):
    """Submit, GetUpdate, GetMatchLog, GetReplay: decode, hand to the match or the log, encode."""

    def __init__(
        self,
        matches: Matches,
        log_reader: LogReader | None = None,
        replays: Replays | None = None,
    ) -> None:
        self._matches = matches
        self._log_reader = log_reader
        self._replays = replays

    async def Submit(
        self,
        request: arbitration_pb2.SubmitRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> arbitration_pb2.SubmitReply:
        arrival_ns = self._matches.now()  # the instant that counts: before anything awaits
        try:
            player = player_id_of(context)
            received_ns = received_ns_of(context)
            answer: asyncio.Future[arbitration_pb2.SubmitReply] = (
                asyncio.get_running_loop().create_future()
            )
            take_in(self._matches, request, player, received_ns, arrival_ns, settling(answer))
            return await answer
        except Rejection as rejection:
            await rejection.abort(context)
            raise AssertionError("abort returns by raising") from None

    async def GetUpdate(
        self,
        request: arbitration_pb2.GetUpdateRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> arbitration_pb2.MatchUpdate:
        try:
            if request.seat == SPECTATORS:
                match = self._matches.get(request.match_id)
                await spectator_view.watch(match, self._matches.rules, self._matches.now())
            else:
                match = seated(self._matches, request.match_id, request.seat, player_id_of(context))
            await whole_views.fetch(match, self._matches.rules, request.seat)
            return build_update(match, request.seat, self._matches.now())
        except Rejection as rejection:
            await rejection.abort(context)
            raise AssertionError("abort returns by raising") from None

    async def GetMatchLog(
        self,
        request: log_pb2.GetMatchLogRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> log_pb2.MatchLog:
        try:
            if self._log_reader is None:
                raise refuse(Reason.NO_LOG, "no log store here")
            held = self._matches.find(request.match_id)
            return await self._log_reader.fetch(
                request.match_id,
                player_id_of(context),
                held,
                is_operator(context.invocation_metadata()),
            )
        except Rejection as rejection:
            await rejection.abort(context)
            raise AssertionError("abort returns by raising") from None

    async def GetReplay(
        self,
        request: replay_pb2.GetReplayRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> replay_pb2.Replay:
        try:
            if self._replays is None:
                raise refuse(Reason.NO_LOG, "no log store here")
            held = self._matches.find(request.match_id)
            return await self._replays.fetch(
                request, player_id_of(context), held, is_operator(context.invocation_metadata())
            )
        except Rejection as rejection:
            await rejection.abort(context)
            raise AssertionError("abort returns by raising") from None
