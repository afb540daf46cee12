"""The public API as typed calls: what a person's client, or a bot, can do."""

from __future__ import annotations

import contextlib
import itertools
import re
import secrets
import time
from collections.abc import AsyncGenerator, Callable, Sequence

import aiohttp

from clients.grpcweb import CallError, GrpcWebClient
from clients.kept_view import ChangeMissed, KeptView
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2, replay_pb2
from photofinish.client.v1 import account_pb2, arena_pb2
from photofinish.game.v1 import game_pb2
from photofinish.matchmaking.v1 import matchmaking_pb2
from photofinish.ratings.v1 import ratings_pb2
from photofinish.tournaments.v1 import tournaments_pb2

ARENA = "/photofinish.client.v1.Arena"
SUBMIT_RETRIES = 3
REFRESH_BEFORE_S = 60  # an access token with less left than this is refreshed first
NO_ACCESS_NEEDED = frozenset(
    {"SignIn", "SignUp", "SignInAccount", "RefreshSession", "BeginPasskeySignIn", "PasskeySignIn"}
)


def unique_username(label: str) -> str:
    """A username no one has yet, that reads like ``label``: "Load player 7" becomes
    "Load_player_7_3fa9c" (the accounts' rules: 3-20 letters or digits, _ - . between)."""
    stem = "_".join(re.findall(r"[^\W_]+", label))[:14].rstrip("_") or "player"
    return f"{stem}_{secrets.token_hex(3)[:5]}"


class ArenaClient:
    """One signed-in player talking to one gateway."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.web = GrpcWebClient(session, url)
        self.player_id = ""
        self.name = ""
        self._seq = itertools.count(1)
        # An account's session: the refresh token kept, and told to ``on_refresh`` (the CLI
        # saves it) each time it turns; the access token refreshed before it expires.
        self.refresh_token = ""
        self.on_refresh: Callable[[account_pb2.AccountSession], None] = lambda session: None
        self._access_expires_at = 0

    @property
    def is_account(self) -> bool:
        """Signed in to an account (which can play rated), not as a guest."""
        return bool(self.refresh_token)

    async def sign_in(self, name: str) -> arena_pb2.SignInReply:
        self.refresh_token, self.web.before_call = "", None  # a guest has nothing to refresh
        reply = await self.web.unary(
            f"{ARENA}/SignIn", arena_pb2.SignInRequest(display_name=name), arena_pb2.SignInReply
        )
        self.web.token, self.player_id, self.name = (
            reply.token,
            reply.player_id,
            reply.display_name,
        )
        return reply

    async def sign_up(
        self, username: str, password: str, device: str
    ) -> account_pb2.AccountSession:
        """Make an account and sign it in (signed in as a guest, the guest becomes it)."""
        request = account_pb2.SignUpRequest(username=username, password=password, device=device)
        return self._signed_in(
            await self.web.unary(f"{ARENA}/SignUp", request, account_pb2.AccountSession)
        )

    async def sign_up_new(
        self, label: str, device: str = "a program"
    ) -> account_pb2.AccountSession:
        """Make an account of its own for a program's player (a bot, a load test, a test):
        a unique username from ``label`` and a random password, kept nowhere."""
        return await self.sign_up(unique_username(label), secrets.token_urlsafe(18), device)

    async def sign_in_account(
        self, username: str, password: str, device: str
    ) -> account_pb2.AccountSession:
        request = account_pb2.AccountSignInRequest(
            username=username, password=password, device=device
        )
        return self._signed_in(
            await self.web.unary(f"{ARENA}/SignInAccount", request, account_pb2.AccountSession)
        )

    async def refresh_session(self, refresh_token: str) -> account_pb2.AccountSession:
        """Spend ``refresh_token`` for the session's next tokens (keep the new one)."""
        request = account_pb2.RefreshSessionRequest(refresh_token=refresh_token)
        return self._signed_in(
            await self.web.unary(f"{ARENA}/RefreshSession", request, account_pb2.AccountSession)
        )

    async def list_devices(self) -> account_pb2.ListDevicesReply:
        return await self.web.unary(
            f"{ARENA}/ListDevices", account_pb2.ListDevicesRequest(), account_pb2.ListDevicesReply
        )

    async def sign_out(
        self, session_id: str = "", everywhere: bool = False
    ) -> account_pb2.SignOutReply:
        """End this device's session, another one (``session_id``) or all of them."""
        request = account_pb2.SignOutRequest(session_id=session_id, everywhere=everywhere)
        return await self.web.unary(f"{ARENA}/SignOut", request, account_pb2.SignOutReply)

    async def delete_account(self, password: str) -> account_pb2.SignOutReply:
        request = account_pb2.DeleteAccountRequest(password=password)
        return await self.web.unary(f"{ARENA}/DeleteAccount", request, account_pb2.SignOutReply)

    async def begin_adding_passkey(self) -> account_pb2.PasskeyChallenge:
        """The options for navigator.credentials.create (WebAuthn's JSON form)."""
        return await self.web.unary(
            f"{ARENA}/BeginAddPasskey",
            account_pb2.BeginAddPasskeyRequest(),
            account_pb2.PasskeyChallenge,
        )

    async def add_passkey(
        self, challenge_id: str, credential_json: str, name: str = ""
    ) -> account_pb2.Passkey:
        request = account_pb2.AddPasskeyRequest(
            challenge_id=challenge_id, credential_json=credential_json, name=name
        )
        return await self.web.unary(f"{ARENA}/AddPasskey", request, account_pb2.Passkey)

    async def list_passkeys(self) -> account_pb2.ListPasskeysReply:
        return await self.web.unary(
            f"{ARENA}/ListPasskeys",
            account_pb2.ListPasskeysRequest(),
            account_pb2.ListPasskeysReply,
        )

    async def remove_passkey(self, credential_id: str) -> account_pb2.ListPasskeysReply:
        request = account_pb2.RemovePasskeyRequest(credential_id=credential_id)
        return await self.web.unary(
            f"{ARENA}/RemovePasskey", request, account_pb2.ListPasskeysReply
        )

    async def begin_passkey_sign_in(self) -> account_pb2.PasskeyChallenge:
        """The options for navigator.credentials.get (WebAuthn's JSON form)."""
        return await self.web.unary(
            f"{ARENA}/BeginPasskeySignIn",
            account_pb2.BeginPasskeySignInRequest(),
            account_pb2.PasskeyChallenge,
        )

    async def passkey_sign_in(
        self, challenge_id: str, credential_json: str, device: str
    ) -> account_pb2.AccountSession:
        request = account_pb2.PasskeySignInRequest(
            challenge_id=challenge_id, credential_json=credential_json, device=device
        )
        return self._signed_in(
            await self.web.unary(f"{ARENA}/PasskeySignIn", request, account_pb2.AccountSession)
        )

    def _signed_in(self, session: account_pb2.AccountSession) -> account_pb2.AccountSession:
        self.web.token, self.player_id, self.name = (
            session.access_token,
            session.player_id,
            session.username,
        )
        self.refresh_token = session.refresh_token
        self._access_expires_at = session.access_expires_at_unix
        self.web.before_call = self._keep_fresh
        self.on_refresh(session)
        return session

    async def _keep_fresh(self, path: str) -> None:
        """Refresh the access token when it has less than a minute left (not for a call
        that signs in or refreshes: those need none)."""
        if path.rsplit("/", 1)[-1] in NO_ACCESS_NEEDED or not self.refresh_token:
            return
        if time.time() < self._access_expires_at - REFRESH_BEFORE_S:
            return
        await self.refresh_session(self.refresh_token)

    async def play_computer(
        self, game: game_pb2.Game.ValueType, level: game_pb2.Level.ValueType
    ) -> matchmaking_pb2.MatchAssignment:
        request = matchmaking_pb2.PlayComputerRequest(game=game, level=level)
        return await self.web.unary(
            f"{ARENA}/PlayComputer", request, matchmaking_pb2.MatchAssignment
        )

    async def play_hot_seat(self, game: game_pb2.Game.ValueType) -> matchmaking_pb2.MatchAssignment:
        request = matchmaking_pb2.PlayHotSeatRequest(game=game)
        return await self.web.unary(
            f"{ARENA}/PlayHotSeat", request, matchmaking_pb2.MatchAssignment
        )

    def rematch(self, match_id: str) -> AsyncGenerator[matchmaking_pb2.RematchUpdate, None]:
        """Follow the rematch offers of a finished online match (the new match last)."""
        request = matchmaking_pb2.RematchRequest(match_id=match_id)
        return self.web.stream(f"{ARENA}/Rematch", request, matchmaking_pb2.RematchUpdate)

    async def offer_rematch(self, match_id: str) -> matchmaking_pb2.RematchUpdate:
        """Offer a rematch of a finished online match, or accept the opponent's offer."""
        request = matchmaking_pb2.RematchRequest(match_id=match_id)
        return await self.web.unary(f"{ARENA}/OfferRematch", request, matchmaking_pb2.RematchUpdate)

    def queue(
        self, game: game_pb2.Game.ValueType, rated: bool
    ) -> AsyncGenerator[matchmaking_pb2.QueueUpdate, None]:
        request = matchmaking_pb2.QueueRequest(game=game, rated=rated)
        return self.web.stream(f"{ARENA}/Queue", request, matchmaking_pb2.QueueUpdate)

    async def cancel_queue(self, game: game_pb2.Game.ValueType) -> bool:
        """Return whether a waiting ticket for ``game`` was withdrawn."""
        request = matchmaking_pb2.CancelQueueRequest(game=game)
        reply = await self.web.unary(
            f"{ARENA}/CancelQueue", request, matchmaking_pb2.CancelQueueReply
        )
        return reply.cancelled

    async def create_challenge(
        self, game: game_pb2.Game.ValueType, rated: bool
    ) -> AsyncGenerator[matchmaking_pb2.ChallengeUpdate, None]:
        """Yield the challenge's code, then its match. The server sends the code again when
        someone accepts, to see that this stream is still open: that repeat is left out."""
        request = matchmaking_pb2.CreateChallengeRequest(game=game, rated=rated)
        updates = self.web.stream(
            f"{ARENA}/CreateChallenge", request, matchmaking_pb2.ChallengeUpdate
        )
        shown = ""
        try:
            async for update in updates:
                if update.WhichOneof("kind") == "code" and update.code == shown:
                    continue
                shown = update.code
                yield update
        finally:
            await updates.aclose()

    async def accept_challenge(self, code: str) -> matchmaking_pb2.MatchAssignment:
        request = matchmaking_pb2.AcceptChallengeRequest(code=code)
        return await self.web.unary(
            f"{ARENA}/AcceptChallenge", request, matchmaking_pb2.MatchAssignment
        )

    async def watch(
        self, match_id: str, seat: int, *, changes: bool = False
    ) -> AsyncGenerator[arbitration_pb2.MatchUpdate, None]:
        """Yield a seat's (-1: the spectators') updates, each with its whole view; with
        ``changes``, as the server sent them (most with a change in place of a view)."""
        request = arena_pb2.WatchRequest(match_id=match_id, seat=seat)
        if changes:
            async for update in self._watch(request):
                yield update
            return
        kept = KeptView()
        while True:  # a change missed: the stream again, whose first update is whole
            async with contextlib.aclosing(self._watch(request)) as updates:
                try:
                    async for update in updates:
                        yield kept.complete(update)
                    return
                except ChangeMissed:
                    pass

    def _watch(
        self, request: arena_pb2.WatchRequest
    ) -> AsyncGenerator[arbitration_pb2.MatchUpdate, None]:
        return self.web.stream(f"{ARENA}/Watch", request, arbitration_pb2.MatchUpdate)

    async def list_live_matches(
        self, game: game_pb2.Game.ValueType = game_pb2.GAME_UNSPECIFIED, match_id: str = ""
    ) -> list[arena_pb2.LiveMatchShown]:
        """Return the matches in play (of ``game``, or only ``match_id``), tournament games
        first, each with its spectator count; spectators watch one with seat -1."""
        request = arena_pb2.ListLiveMatchesRequest(game=game, match_id=match_id)
        reply = await self.web.unary(
            f"{ARENA}/ListLiveMatches", request, arena_pb2.ListLiveMatchesReply
        )
        return list(reply.matches)

    def next_client_seq(self) -> int:
        """Return a fresh client_seq: one counter for all of this player's commands."""
        return next(self._seq)

    async def submit(
        self, match_id: str, seat: int, command: game_pb2.Command, client_seq: int = 0
    ) -> arbitration_pb2.SubmitReply:
        """Send a command (with a fresh client_seq unless given one); a transport failure
        is retried with the same client_seq.

        Raises:
            CallError: when the server refuses the command (the reason says why).
        """
        request = arbitration_pb2.SubmitRequest(
            match_id=match_id,
            seat=seat,
            client_seq=client_seq or self.next_client_seq(),
            command=command,
        )
        for attempt in range(SUBMIT_RETRIES):
            try:
                return await self.web.unary(f"{ARENA}/Submit", request, arbitration_pb2.SubmitReply)
            except (aiohttp.ClientConnectionError, TimeoutError):
                if attempt == SUBMIT_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    async def ladder(self, game: game_pb2.Game.ValueType, limit: int = 50) -> ratings_pb2.Ladder:
        request = ratings_pb2.GetLadderRequest(game=game, limit=limit)
        return await self.web.unary(f"{ARENA}/GetLadder", request, ratings_pb2.Ladder)

    async def ladder_around(
        self, game: game_pb2.Game.ValueType, player_id: str, limit: int = 50
    ) -> ratings_pb2.Ladder:
        """Return the page of the ladder around ``player_id``'s rank.

        Raises:
            CallError: ``not_ranked`` before the player's first rated game.
        """
        request = ratings_pb2.GetLadderRequest(game=game, limit=limit, around_player_id=player_id)
        return await self.web.unary(f"{ARENA}/GetLadder", request, ratings_pb2.Ladder)

    async def get_history(
        self, player_id: str, game: game_pb2.Game.ValueType, limit: int = 50, offset: int = 0
    ) -> ratings_pb2.History:
        """Return any player's matches in ``game`` (0: every game), newest first, from the
        ``offset``-th newest on (public, like the ladder)."""
        request = ratings_pb2.GetHistoryRequest(
            player_id=player_id, game=game, limit=limit, offset=offset
        )
        return await self.web.unary(f"{ARENA}/GetHistory", request, ratings_pb2.History)

    async def get_rating(
        self, player_id: str, game: game_pb2.Game.ValueType
    ) -> ratings_pb2.PlayerRating:
        """Return any player's rating in ``game`` (a newcomer's default if never rated)."""
        request = ratings_pb2.GetRatingRequest(player_id=player_id, game=game)
        return await self.web.unary(f"{ARENA}/GetRating", request, ratings_pb2.PlayerRating)

    async def get_profile(self, player_id: str) -> ratings_pb2.Profile:
        """Return any player's profile: each game's rating now and over time, rank, results."""
        request = ratings_pb2.GetProfileRequest(player_id=player_id)
        return await self.web.unary(f"{ARENA}/GetProfile", request, ratings_pb2.Profile)

    async def report_opponent(
        self, match_id: str, reason: ratings_pb2.ReportReason.ValueType
    ) -> ratings_pb2.ReportOpponentReply:
        """Report the opponent of a finished online match of the caller's (fair play)."""
        request = ratings_pb2.ReportOpponentRequest(match_id=match_id, reason=reason)
        return await self.web.unary(
            f"{ARENA}/ReportOpponent", request, ratings_pb2.ReportOpponentReply
        )

    async def fair_play_queue(self) -> ratings_pb2.FairPlayQueue:
        """Return the open fair-play flags (operators only: ``operators_only`` otherwise)."""
        request = ratings_pb2.GetFairPlayQueueRequest()
        return await self.web.unary(f"{ARENA}/GetFairPlayQueue", request, ratings_pb2.FairPlayQueue)

    async def fair_play_case(self, flag_id: str) -> ratings_pb2.FairPlayCase:
        """Return one flag's evidence (operators only)."""
        request = ratings_pb2.GetFairPlayCaseRequest(flag_id=flag_id)
        return await self.web.unary(f"{ARENA}/GetFairPlayCase", request, ratings_pb2.FairPlayCase)

    async def settle_flag(
        self, flag_id: str, action: ratings_pb2.FlagAction.ValueType, why: str
    ) -> ratings_pb2.SettleFlagReply:
        """Clear a flag or mark its account, saying why (operators only)."""
        request = ratings_pb2.SettleFlagRequest(flag_id=flag_id, action=action, why=why)
        return await self.web.unary(f"{ARENA}/SettleFlag", request, ratings_pb2.SettleFlagReply)

    async def match_reactions(self, match_id: str) -> ratings_pb2.MatchReactions:
        """Return each measured play of a rated Spit match (operators only)."""
        request = ratings_pb2.GetMatchReactionsRequest(match_id=match_id)
        return await self.web.unary(
            f"{ARENA}/GetMatchReactions", request, ratings_pb2.MatchReactions
        )

    async def match_log(self, match_id: str) -> log_pb2.MatchLog:
        """Return a finished match's arbitration log (the caller must have played in it).

        Raises:
            CallError: ``match_live`` before the end, ``not_your_match`` for a stranger.
        """
        request = log_pb2.GetMatchLogRequest(match_id=match_id)
        return await self.web.unary(f"{ARENA}/GetMatchLog", request, log_pb2.MatchLog)

    async def replay(self, match_id: str, first_step: int = 0) -> replay_pb2.Replay:
        """Return a page of a finished match's replay, from ``first_step`` (as ``match_log``)."""
        request = replay_pb2.GetReplayRequest(match_id=match_id, first_step=first_step)
        return await self.web.unary(f"{ARENA}/GetReplay", request, replay_pb2.Replay)

    async def create_tournament(
        self, request: tournaments_pb2.CreateTournamentRequest
    ) -> tournaments_pb2.Tournament:
        return await self.web.unary(
            f"{ARENA}/CreateTournament", request, tournaments_pb2.Tournament
        )

    async def list_tournaments(
        self, statuses: Sequence[tournaments_pb2.Status.ValueType] = (), limit: int = 0
    ) -> tournaments_pb2.ListTournamentsReply:
        request = tournaments_pb2.ListTournamentsRequest(statuses=statuses, limit=limit)
        return await self.web.unary(
            f"{ARENA}/ListTournaments", request, tournaments_pb2.ListTournamentsReply
        )

    async def join_tournament(self, tournament_id: str) -> tournaments_pb2.Tournament:
        request = tournaments_pb2.JoinTournamentRequest(tournament_id=tournament_id)
        return await self.web.unary(f"{ARENA}/JoinTournament", request, tournaments_pb2.Tournament)

    async def player_tournaments(self, player_id: str) -> tournaments_pb2.PlayerTournaments:
        """Return how many tournaments a player entered, and their best finishes."""
        request = tournaments_pb2.GetPlayerTournamentsRequest(player_id=player_id)
        return await self.web.unary(
            f"{ARENA}/GetPlayerTournaments", request, tournaments_pb2.PlayerTournaments
        )

    async def withdraw_tournament(self, tournament_id: str) -> tournaments_pb2.Tournament:
        request = tournaments_pb2.WithdrawTournamentRequest(tournament_id=tournament_id)
        return await self.web.unary(
            f"{ARENA}/WithdrawTournament", request, tournaments_pb2.Tournament
        )

    def watch_tournament(
        self, tournament_id: str
    ) -> AsyncGenerator[tournaments_pb2.TournamentUpdate, None]:
        """Stream the standings on every change and the caller's own pairings."""
        request = tournaments_pb2.WatchTournamentRequest(tournament_id=tournament_id)
        return self.web.stream(
            f"{ARENA}/WatchTournament", request, tournaments_pb2.TournamentUpdate
        )

    async def get_tournament(self, tournament_id: str) -> tournaments_pb2.TournamentRecord:
        request = tournaments_pb2.GetTournamentRequest(tournament_id=tournament_id)
        return await self.web.unary(
            f"{ARENA}/GetTournament", request, tournaments_pb2.TournamentRecord
        )


__all__ = ["ArenaClient", "CallError"]
