"""The Tournaments gRPC service: decode, ask the store or the director, encode."""

from __future__ import annotations

from collections.abc import AsyncGenerator

from photofinish.tournaments.v1 import tournaments_pb2 as pb
from photofinish.tournaments.v1 import tournaments_pb2_grpc
from services.common.identity import MissingIdentity, Player, caller, is_account
from services.common.opening.codec import match_assignment
from services.common.statuses import Context, Statuses
from services.tournaments import codec
from services.tournaments.director import Director, assignment_of, wall_ms
from services.tournaments.errors import (
    Forbidden,
    NotFound,
    Reason,
    Refused,
    TournamentError,
    Unauthenticated,
)
from services.tournaments.hub import Hub
from services.tournaments.model import Entrant, Status, Tournament
from services.tournaments.standings import rank
from services.tournaments.store import Store

# A player's tournaments not yet finished: one running and the next announced. The public
# list shows 50; one token filled 47 of its places before.
MAX_OPEN_PER_CREATOR = 2

_STATUSES = Statuses(TournamentError, TournamentError.rejection)
unary = _STATUSES.unary
stream = _STATUSES.stream


def player_of(context: Context) -> Player:
    """Return the player the gateway names in the call's metadata.

    Raises:
        Unauthenticated: when no player is named.
    """
    try:
        return caller(context.invocation_metadata())
    except MissingIdentity as error:
        raise Unauthenticated(Reason.MISSING_IDENTITY, error.detail) from None


def account_needed(context: Context) -> None:
    """Refuse a guest: rated tournaments are for accounts.

    Raises:
        Forbidden: ACCOUNT_NEEDED, when the gateway names no account session.
    """
    if not is_account(context.invocation_metadata()):
        raise Forbidden(
            Reason.ACCOUNT_NEEDED,
            "rated tournaments are for accounts: sign up or sign in to play in one",
        )


class TournamentsServicer(tournaments_pb2_grpc.TournamentsServicer):
    def __init__(self, store: Store, hub: Hub, director: Director) -> None:
        self.store, self.hub, self.director = store, hub, director

    @unary
    async def CreateTournament(
        self, request: pb.CreateTournamentRequest, context: Context
    ) -> pb.Tournament:
        t = codec.new_tournament(request, player_of(context), wall_ms())
        if t.rated:
            account_needed(context)
        held = await self.store.create_within(t, wall_ms(), MAX_OPEN_PER_CREATOR)
        if held >= MAX_OPEN_PER_CREATOR:
            raise Refused(
                Reason.TOO_MANY_TOURNAMENTS,
                f"you have {held} tournaments that have not finished, the most at once:"
                " create another once one has finished",
            )
        self.director.poke()
        return codec.tournament(t, 0)

    @unary
    async def ListTournaments(
        self, request: pb.ListTournamentsRequest, context: Context
    ) -> pb.ListTournamentsReply:
        statuses, limit = codec.list_filter(request)
        found = await self.store.tournaments(statuses, limit)
        return pb.ListTournamentsReply(
            tournaments=[codec.tournament(t, await self._entrants(t)) for t in found]
        )

    @unary
    async def JoinTournament(
        self, request: pb.JoinTournamentRequest, context: Context
    ) -> pb.Tournament:
        who = player_of(context)
        t = await self._tournament(request.tournament_id)
        if t.status in (Status.ENDING, Status.FINISHED):
            raise Refused(Reason.TOURNAMENT_OVER, f"tournament {t.id} is {t.status}")
        if t.rated:
            account_needed(context)
        await self.store.join(t.id, Entrant(who.id, who.name, wall_ms(), guest=who.guest))
        self.director.poke()
        return codec.tournament(t, await self._entrants(t))

    @unary
    async def WithdrawTournament(
        self, request: pb.WithdrawTournamentRequest, context: Context
    ) -> pb.Tournament:
        who = player_of(context)
        t = await self._tournament(request.tournament_id)
        if not await self.store.withdraw(t.id, who.id):
            raise Refused(Reason.NOT_ENTERED, f"{who} is not entered in {t.id}")
        self.director.poke()
        return codec.tournament(t, await self._entrants(t))

    @stream
    async def WatchTournament(
        self, request: pb.WatchTournamentRequest, context: Context
    ) -> AsyncGenerator[pb.TournamentUpdate, None]:
        who = player_of(context)
        tournament_id = (await self._tournament(request.tournament_id)).id
        with self.hub.watching(tournament_id, who.id) as watcher:
            # Read after subscribing, so a finish in between is not missed.
            t = await self._tournament(tournament_id)
            yield pb.TournamentUpdate(standings=(await self._record(t)).standings)
            if t.status is Status.FINISHED:
                return
            game = await self.director.current_match(t, who.id)
            if game is not None:
                names = {e.player_id: e.name for e in await self.store.entrants(t.id)}
                assignment = assignment_of(game, t, names, who.id)
                yield pb.TournamentUpdate(match=match_assignment(assignment))
            async for update in watcher.updates():
                if game is not None and update.match.match_id == game.match_id:
                    continue  # paired while the current game was read: sent once already
                yield update

    @unary
    async def GetTournament(
        self, request: pb.GetTournamentRequest, context: Context
    ) -> pb.TournamentRecord:
        return await self._record(await self._tournament(request.tournament_id))

    @unary
    async def GetPlayerTournaments(
        self, request: pb.GetPlayerTournamentsRequest, context: Context
    ) -> pb.PlayerTournaments:
        player_id, limit = codec.player_tournaments_request(request)
        entered, best = await self.store.player_tournaments(player_id, limit)
        return codec.player_tournaments(player_id, entered, best)

    async def _tournament(self, tournament_id: str) -> Tournament:
        t = await self.store.tournament(tournament_id)
        if t is None:
            raise NotFound(Reason.NO_SUCH_TOURNAMENT, f"no tournament {tournament_id!r}")
        return t

    async def _entrants(self, t: Tournament) -> int:
        return sum(1 for e in await self.store.entrants(t.id) if not e.withdrawn)

    async def _record(self, t: Tournament) -> pb.TournamentRecord:
        """Return the standings (the stored final ones once finished) and the games."""
        games = await self.store.games(t.id)
        if t.status is Status.FINISHED:
            lines = await self.store.final_standings(t.id)
        else:
            lines = list(rank(await self.store.entrants(t.id), games))
        return codec.record(t, lines, games)
