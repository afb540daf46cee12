"""The Matchmaking gRPC service: decode the request, call the queues, challenges or opener,
encode the reply."""

from __future__ import annotations

from collections.abc import AsyncGenerator

from photofinish.matchmaking.v1 import matchmaking_pb2 as pb
from photofinish.matchmaking.v1 import matchmaking_pb2_grpc
from services.matchmaking import codec, status
from services.matchmaking.challenges import Challenges
from services.matchmaking.identity import caller
from services.matchmaking.matches import assignment
from services.matchmaking.opening import Opener
from services.matchmaking.queues import Queues
from services.matchmaking.status import Context
from services.matchmaking.tickets import QueueKey


class MatchmakingServicer(matchmaking_pb2_grpc.MatchmakingServicer):
    """Serves one process's queues and challenges; opens matches through ``opener``."""

    def __init__(self, queues: Queues, challenges: Challenges, opener: Opener) -> None:
        self._queues = queues
        self._challenges = challenges
        self._opener = opener

    @status.stream
    async def Queue(
        self, request: pb.QueueRequest, context: Context
    ) -> AsyncGenerator[pb.QueueUpdate, None]:
        player = caller(context.invocation_metadata())
        queue = QueueKey(codec.decode_game(request.game), request.rated)
        async with self._queues.ticket(player, queue) as updates:
            async for update in updates:
                yield codec.queue_update(update)

    @status.unary
    async def CancelQueue(
        self, request: pb.CancelQueueRequest, context: Context
    ) -> pb.CancelQueueReply:
        player = caller(context.invocation_metadata())
        cancelled = self._queues.cancel(player.id, codec.decode_game(request.game))
        return pb.CancelQueueReply(cancelled=cancelled)

    @status.stream
    async def CreateChallenge(
        self, request: pb.CreateChallengeRequest, context: Context
    ) -> AsyncGenerator[pb.ChallengeUpdate, None]:
        player = caller(context.invocation_metadata())
        game = codec.decode_game(request.game)
        async with self._challenges.create(player, game, request.rated) as (code, match):
            yield codec.challenge_update(code)
            yield codec.challenge_update(await match)

    @status.unary
    async def AcceptChallenge(
        self, request: pb.AcceptChallengeRequest, context: Context
    ) -> pb.MatchAssignment:
        player = caller(context.invocation_metadata())
        return codec.match_assignment(await self._challenges.accept(player, request.code))

    @status.unary
    async def PlayComputer(
        self, request: pb.PlayComputerRequest, context: Context
    ) -> pb.MatchAssignment:
        player = caller(context.invocation_metadata())
        game, level = codec.decode_game(request.game), codec.decode_level(request.level)
        spec = await self._opener.computer(player, game, level)
        return codec.match_assignment(assignment(spec, player.id))

    @status.unary
    async def PlayHotSeat(
        self, request: pb.PlayHotSeatRequest, context: Context
    ) -> pb.MatchAssignment:
        player = caller(context.invocation_metadata())
        spec = await self._opener.hotseat(player, codec.decode_game(request.game))
        return codec.match_assignment(assignment(spec, player.id))
