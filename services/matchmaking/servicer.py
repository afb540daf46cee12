"""The Matchmaking gRPC service: decode the request, call the queues, challenges or opener,
encode the reply."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable

from games.registry import Game
from photofinish.matchmaking.v1 import matchmaking_pb2 as pb
from photofinish.matchmaking.v1 import matchmaking_pb2_grpc
from services.common.identity import MissingIdentity, Player, PlayerId, caller, is_account
from services.common.opening.codec import match_assignment
from services.common.opening.matches import assignment
from services.common.statuses import Context
from services.matchmaking import codec, status
from services.matchmaking.challenges import Challenges, shown
from services.matchmaking.errors import (
    BARRED_FROM_RATED,
    RATED_IS_FOR_ACCOUNTS,
    Forbidden,
    Reason,
    Unauthenticated,
)
from services.matchmaking.opener import Opener
from services.matchmaking.playing import Playing
from services.matchmaking.queues import Queues
from services.matchmaking.ratings import never_barred
from services.matchmaking.rematch_offers import Rematches
from services.matchmaking.tickets import QueueKey


def player_of(context: Context) -> Player:
    """Return the player the gateway names in the call's metadata.

    Raises:
        Unauthenticated: when no player is named.
    """
    try:
        return caller(context.invocation_metadata())
    except MissingIdentity as error:
        raise Unauthenticated(Reason.MISSING_IDENTITY, error.detail) from None


Barred = Callable[[PlayerId, Game], Awaitable[bool]]


def account_needed(context: Context) -> None:
    """Refuse a guest: rated play is for accounts.

    Raises:
        Forbidden: ACCOUNT_NEEDED, when the gateway names no account session.
    """
    if not is_account(context.invocation_metadata()):
        raise Forbidden(Reason.ACCOUNT_NEEDED, RATED_IS_FOR_ACCOUNTS)


class MatchmakingServicer(matchmaking_pb2_grpc.MatchmakingServicer):
    """Serves one process's queues and challenges; opens matches through ``opener``, those
    against the computer and on one device up to each player's cap in ``playing``."""

    def __init__(
        self,
        queues: Queues,
        challenges: Challenges,
        opener: Opener,
        rematches: Rematches,
        playing: Playing,
        barred: Barred = never_barred,
    ) -> None:
        self._barred = barred
        self._queues = queues
        self._challenges = challenges
        self._opener = opener
        self._rematches = rematches
        self._playing = playing

    @status.stream
    async def Queue(
        self, request: pb.QueueRequest, context: Context
    ) -> AsyncGenerator[pb.QueueUpdate, None]:
        player = player_of(context)
        queue = QueueKey(codec.decode_game(request.game), request.rated)
        if request.rated:
            account_needed(context)
            await self._not_barred(player, queue.game)
        async with self._queues.ticket(player, queue) as updates:
            async for update in updates:
                yield codec.queue_update(update)

    async def _not_barred(self, player: Player, game: Game) -> None:
        """Refuse rated play to an account marked for unfair play.

        Raises:
            Forbidden: BARRED.
        """
        if await self._barred(player.id, game):
            raise Forbidden(Reason.BARRED, BARRED_FROM_RATED)

    @status.unary
    async def CancelQueue(
        self, request: pb.CancelQueueRequest, context: Context
    ) -> pb.CancelQueueReply:
        player = player_of(context)
        cancelled = self._queues.cancel(player.id, codec.decode_game(request.game))
        return pb.CancelQueueReply(cancelled=cancelled)

    @status.stream
    async def CreateChallenge(
        self, request: pb.CreateChallengeRequest, context: Context
    ) -> AsyncGenerator[pb.ChallengeUpdate, None]:
        player = player_of(context)
        game = codec.decode_game(request.game)
        if request.rated:
            account_needed(context)
            await self._not_barred(player, game)
        async with self._challenges.create(player, game, request.rated) as challenge:
            async for sent in shown(challenge):
                yield codec.challenge_update(sent)

    @status.unary
    async def AcceptChallenge(
        self, request: pb.AcceptChallengeRequest, context: Context
    ) -> pb.MatchAssignment:
        player = player_of(context)
        account = is_account(context.invocation_metadata())
        rated = self._challenges.rated_game(request.code)
        if rated is not None and account:
            await self._not_barred(player, rated)
        return match_assignment(await self._challenges.accept(player, request.code, account))

    @status.stream
    async def Rematch(
        self, request: pb.RematchRequest, context: Context
    ) -> AsyncGenerator[pb.RematchUpdate, None]:
        player = player_of(context)
        async with self._rematches.follow(player, request.match_id) as updates:
            while True:
                standing = await updates.get()
                yield codec.rematch_update(standing)
                if standing.match is not None:
                    return

    @status.unary
    async def OfferRematch(self, request: pb.RematchRequest, context: Context) -> pb.RematchUpdate:
        player = player_of(context)
        return codec.rematch_update(await self._rematches.offer(player, request.match_id))

    @status.unary
    async def PlayComputer(
        self, request: pb.PlayComputerRequest, context: Context
    ) -> pb.MatchAssignment:
        player = player_of(context)
        game, level = codec.decode_game(request.game), codec.decode_level(request.level)
        match_id = self._opener.draw_match_id()
        with self._playing.starting(player.id, match_id):
            spec = await self._opener.computer(player, game, level, match_id)
        return match_assignment(assignment(spec, player.id))

    @status.unary
    async def PlayHotSeat(
        self, request: pb.PlayHotSeatRequest, context: Context
    ) -> pb.MatchAssignment:
        player = player_of(context)
        game = codec.decode_game(request.game)
        match_id = self._opener.draw_match_id()
        with self._playing.starting(player.id, match_id):
            spec = await self._opener.hotseat(player, game, match_id)
        return match_assignment(assignment(spec, player.id))
