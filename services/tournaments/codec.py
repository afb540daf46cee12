"""Proto messages <-> the tournaments service's values, and the checks on what comes in."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.registry import GAMES, by_number
from photofinish.game.v1 import game_pb2
from photofinish.tournaments.v1 import tournaments_pb2 as pb
from services.common.identity import Player
from services.common.ids import fresh_id
from services.tournaments.errors import Malformed, Reason
from services.tournaments.model import (
    GameStatus,
    Status,
    Tournament,
    TournamentGame,
    TournamentId,
)
from services.tournaments.standings import Standing

NAME_MAX = 40
DURATION_MIN_S = 10
DURATION_MAX_S = 24 * 3600
START_SLACK_MS = 60_000  # a start this far in the past is taken as "now" (clock skew)
START_MAX_AHEAD_MS = 30 * 24 * 3600 * 1000
LIST_DEFAULT = 50
LIST_MAX = 200
BEST_DEFAULT = 5  # a profile's best tournament finishes
BEST_MAX = 20

# What a request naming no game is told it might have named: "spit (1) or bid (2)".
_GAME_CHOICES = " or ".join(f"{game} ({game.number})" for game in GAMES)


def new_tournament(request: pb.CreateTournamentRequest, creator: Player, now_ms: int) -> Tournament:
    """Return the tournament ``request`` asks for, not yet started.

    Raises:
        Malformed: for a blank or overlong name, no game, a start in the past or too far
            ahead, or a duration outside 10 s … 24 h.
    """
    name = request.name.strip()
    if not name or len(name) > NAME_MAX or not name.isprintable():
        raise Malformed(
            Reason.BAD_NAME, f"name {request.name!r}: 1–{NAME_MAX} printable characters"
        )
    game = by_number(request.game)
    if game is None:
        raise Malformed(Reason.NO_SUCH_GAME, f"game {request.game!r} is not {_GAME_CHOICES}")
    starts_at_ms = request.starts_at_unix_ms or now_ms
    if starts_at_ms < now_ms - START_SLACK_MS or starts_at_ms > now_ms + START_MAX_AHEAD_MS:
        raise Malformed(
            Reason.BAD_START,
            f"start {request.starts_at_unix_ms} ms is not between now ({now_ms}) and 30 days ahead",
        )
    if not DURATION_MIN_S <= request.duration_s <= DURATION_MAX_S:
        raise Malformed(
            Reason.BAD_DURATION,
            f"duration {request.duration_s} s is not between {DURATION_MIN_S} and {DURATION_MAX_S}",
        )
    return Tournament(
        TournamentId(fresh_id(9)),
        name,
        game,
        request.rated,
        max(starts_at_ms, now_ms),
        request.duration_s,
        Status.UPCOMING,
        creator.name,
        creator.id,
    )


def list_filter(request: pb.ListTournamentsRequest) -> tuple[list[Status], int]:
    """Return the statuses and the limit a list request asks for.

    Raises:
        Malformed: for an unknown status or a negative or too large limit.
    """
    statuses = []
    for value in request.statuses:
        try:
            statuses.append(Status(value))
        except ValueError:
            raise Malformed(Reason.BAD_LIMIT, f"status {value!r} is not 1–4") from None
    if not 0 <= request.limit <= LIST_MAX:
        raise Malformed(Reason.BAD_LIMIT, f"limit {request.limit} is not 0–{LIST_MAX}")
    return statuses, request.limit or LIST_DEFAULT


def tournament(t: Tournament, entrants: int) -> pb.Tournament:
    return pb.Tournament(
        tournament_id=t.id,
        name=t.name,
        game=game_pb2.Game.ValueType(t.game.number),
        rated=t.rated,
        starts_at_unix_ms=t.starts_at_ms,
        duration_s=t.duration_s,
        status=pb.Status.ValueType(t.status.value),
        entrants=entrants,
        created_by=t.created_by,
    )


def standing(line: Standing) -> pb.Standing:
    return pb.Standing(
        rank=line.rank,
        player_id=line.player_id,
        name=line.name,
        points=line.score.points,
        games=line.score.games,
        wins=line.score.wins,
        streak=line.score.streak,
        on_fire=line.score.on_fire,
        playing=line.playing,
        withdrawn=line.withdrawn,
        scoresheet=" ".join(str(p) for p in line.score.sheet),
        guest=line.guest,
        deleted=line.deleted,
    )


def standings(t: Tournament, lines: Sequence[Standing]) -> pb.Standings:
    entrants = sum(1 for line in lines if not line.withdrawn)
    return pb.Standings(tournament=tournament(t, entrants), standings=[standing(x) for x in lines])


def game(g: TournamentGame) -> pb.TournamentGame:
    return pb.TournamentGame(
        match_id=g.match_id,
        player_ids=list(g.players),
        status=pb.GameStatus.ValueType(g.status.value),
        winner=g.winner if g.status is GameStatus.FINISHED and g.winner is not None else 0,
        paired_at_unix_ms=g.paired_at_ms,
    )


def record(
    t: Tournament, lines: Sequence[Standing], games: Iterable[TournamentGame]
) -> pb.TournamentRecord:
    return pb.TournamentRecord(standings=standings(t, lines), games=[game(g) for g in games])


def player_tournaments_request(request: pb.GetPlayerTournamentsRequest) -> tuple[str, int]:
    """Return (player, how many best finishes).

    Raises:
        Malformed: for no player, or a limit out of 0–20.
    """
    if not request.player_id:
        raise Malformed(Reason.NO_PLAYER_ID, "no player id")
    if not 0 <= request.limit <= BEST_MAX:
        raise Malformed(Reason.BAD_LIMIT, f"limit {request.limit} is not 0–{BEST_MAX}")
    return request.player_id, request.limit or BEST_DEFAULT


def player_tournaments(
    player_id: str, entered: int, best: Sequence[tuple[Tournament, int, int, int]]
) -> pb.PlayerTournaments:
    return pb.PlayerTournaments(
        player_id=player_id,
        entered=entered,
        best=[
            pb.TournamentFinish(tournament=tournament(t, ranked), rank=rank, points=points)
            for t, rank, ranked, points in best
        ],
    )
