"""The Arbitration gRPC service: Submit, GetUpdate and GetMatchLog, decoded and handed on."""

from __future__ import annotations

import asyncio

import grpc

from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc, log_pb2
from services.arbitration.match import Match, Submission
from services.arbitration.matches import Matches
from services.arbitration.matchlog.reader import LogReader
from services.arbitration.publisher import build_update
from services.common.identity import player_id_of, received_ns_of
from services.common.rejection import Rejection


class ArbitrationServicer(arbitration_pb2_grpc.ArbitrationServicer):
    """Submit, GetUpdate and GetMatchLog: decode, hand to the match or the log, encode."""

    def __init__(self, matches: Matches, log_reader: LogReader | None = None) -> None:
        self._matches = matches
        self._log_reader = log_reader

    async def Submit(
        self,
        request: arbitration_pb2.SubmitRequest,
        context: grpc.aio.ServicerContext[object, object],
    ) -> arbitration_pb2.SubmitReply:
        arrival_ns = self._matches.now()  # the instant that counts: before anything awaits
        try:
            match = self._seated(request.match_id, request.seat, context)
            if request.client_seq <= 0:
                raise Rejection(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    "bad_client_seq",
                    "client_seq must be 1 or more",
                )
            self._matches.forwarded(match, received_ns_of(context), arrival_ns)
            answer: asyncio.Future[arbitration_pb2.SubmitReply] = (
                asyncio.get_running_loop().create_future()
            )
            match.queue.put_nowait(
                Submission(arrival_ns, request.seat, request.client_seq, request.command, answer)
            )
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
            if request.seat == -1:
                match = self._matches.get(request.match_id)
            else:
                match = self._seated(request.match_id, request.seat, context)
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
                raise Rejection(grpc.StatusCode.UNIMPLEMENTED, "no_log", "no log store here")
            held = self._matches.find(request.match_id)
            return await self._log_reader.fetch(request.match_id, player_id_of(context), held)
        except Rejection as rejection:
            await rejection.abort(context)
            raise AssertionError("abort returns by raising") from None

    def _seated(
        self, match_id: str, seat: int, context: grpc.aio.ServicerContext[object, object]
    ) -> Match:
        match = self._matches.get(match_id)
        player = player_id_of(context)
        if seat not in match.player_seats(player):
            raise Rejection(
                grpc.StatusCode.PERMISSION_DENIED,
                "not_your_seat",
                f"seat {seat} of match {match_id} is not yours",
            )
        return match
