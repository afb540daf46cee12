"""A player's profile, read from the ladder and the history in one unit of work: for each
game they played, the rating now with its rank, the results, and the rating over time."""

from __future__ import annotations

from dataclasses import dataclass

from games.registry import GAMES, Game
from services.common.database import Session
from services.ratings import measured, moderation
from services.ratings.model import PlayerId, Standing, Verdict

POINTS = 500  # the newest rated games a chart shows
# A marked account is off every ladder (docs/fair-play.md): a condition on ``ladder`` rows.
ON_LADDER = " AND player_id NOT IN (SELECT player_id FROM marked_players)"


@dataclass(frozen=True, slots=True)
class RatingPoint:
    played_unix_s: float
    rating: float


@dataclass(frozen=True, slots=True)
class GameProfile:
    game: Game
    standing: Standing | None  # None before the first rated game
    rank: int  # 0 when not ranked
    ranked: int  # how many are on the ladder
    results: dict[Verdict, int]
    points: tuple[RatingPoint, ...]  # oldest first
    spit: measured.SpitFigures | None = None  # Spit's races and reactions, once measured


@dataclass(frozen=True, slots=True)
class Profile:
    player_id: PlayerId
    name: str
    guest: bool
    deleted: bool
    games: tuple[GameProfile, ...]
    barred: bool = False  # marked for unfair play: off the ladders, no rated games


def rank_of(session: Session, game: Game, found: Standing) -> tuple[int, int]:
    """The player's place on ``game``'s ladder (from 1), and how many are on it."""
    collation = session.dialect.binary_collation
    rating, games = found.rating.rating, found.games
    # Ahead in ladder order: higher rating, then more games, then a smaller player id.
    ahead, total = session.rows(
        "SELECT SUM(CASE WHEN rating > ? OR (rating = ? AND games > ?)"
        f" OR (rating = ? AND games = ? AND player_id < ? COLLATE {collation})"
        f" THEN 1 ELSE 0 END), COUNT(*) FROM ladder WHERE game = ? AND games > 0{ON_LADDER}",
        (rating, rating, games, rating, games, found.player_id, game.name),
    )[0]
    return int(ahead or 0) + 1, int(total)


def profile(
    session: Session, player_id: PlayerId, standing: dict[Game, Standing | None]
) -> Profile:
    """``player_id``'s profile; ``standing`` holds their ladder row in each game."""
    barred = moderation.is_marked(session, player_id)
    shown = []
    for game in GAMES:
        results = _results(session, player_id, game)
        found = standing[game]
        if not results and found is None:
            continue
        ranked = found is not None and not barred
        rank, on_ladder = rank_of(session, game, found) if found is not None and ranked else (0, 0)
        figures = measured.figures(session, player_id) if game.name == "spit" else None
        points = _points(session, player_id, game)
        shown.append(GameProfile(game, found, rank, on_ladder, results, points, figures))
    name, guest, deleted = _named(session, player_id, standing)
    return Profile(player_id, name, guest, deleted, tuple(shown), barred)


def _results(session: Session, player_id: PlayerId, game: Game) -> dict[Verdict, int]:
    rows = session.rows(
        "SELECT verdict, COUNT(*) FROM history WHERE player_id = ? AND game = ? GROUP BY verdict",
        (player_id, game.name),
    )
    return {Verdict(verdict): int(count) for verdict, count in rows}


def _points(session: Session, player_id: PlayerId, game: Game) -> tuple[RatingPoint, ...]:
    rows = session.rows(
        "SELECT played_unix_s, rating_after FROM history WHERE player_id = ? AND game = ?"
        " AND rated = 1 AND rating_after IS NOT NULL"
        " ORDER BY played_unix_s DESC, match_id DESC LIMIT ?",
        (player_id, game.name, POINTS),
    )
    return tuple(RatingPoint(float(at), float(rating)) for at, rating in reversed(rows))


def _named(
    session: Session, player_id: PlayerId, standing: dict[Game, Standing | None]
) -> tuple[str, bool, bool]:
    """The name the newest match gave the player: as an opponent's, or on a ladder."""
    rows = session.rows(
        "SELECT opponent_name, opponent_guest, opponent_deleted FROM history"
        " WHERE opponent_id = ? ORDER BY played_unix_s DESC LIMIT 1",
        (player_id,),
    )
    if rows:
        name, guest, deleted = rows[0]
        return str(name), bool(guest), bool(deleted)
    ranked = [found for found in standing.values() if found is not None]
    if ranked:
        newest = max(ranked, key=lambda found: found.last_played_unix_s)
        return newest.name, newest.guest, newest.deleted
    return "", False, False
