"""What one result does to the ladder and the history: a pure function of the rows it reads.

Lichess-style, each rated game is its own rating period and updates both players at once:
first each player's RD grows for the days they sat idle (``decay``), then ``rate`` scores
the single game against the opponent's rating as it stood just before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from services.ratings import glicko2
from services.ratings.model import (
    Finished,
    HistoryEntry,
    MatchResult,
    Player,
    PlayerId,
    Standing,
    Verdict,
    Voided,
)

SECONDS_PER_DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Settlement:
    """The ladder rows to write (rated results only) and one history line per seat."""

    standings: tuple[Standing, ...]
    history: tuple[HistoryEntry, ...]


def newcomer(player: Player, played_unix_s: float) -> Standing:
    """Return the ladder row of a player's first rated game, before it is scored."""
    return Standing(
        player.player_id,
        player.name,
        glicko2.Rating(),
        0,
        0,
        0,
        played_unix_s,
        player.guest,
        player.deleted,
    )


def settle(
    result: MatchResult,
    standings: Mapping[PlayerId, Standing],
    played_unix_s: float,
    uncounted_reason: str = "",
) -> Settlement:
    """Return what ``result``, stored at ``played_unix_s``, changes; ``standings`` as now.

    A rated result with an ``uncounted_reason`` changes no rating; its lines say why.
    """
    if isinstance(result, Finished) and result.changes_ratings and not uncounted_reason:
        return _rated(result, standings, played_unix_s)
    lines = tuple(
        _line(result, seat, _rating_of(standings, player), None, played_unix_s, uncounted_reason)
        for seat, player in enumerate(result.players)
    )
    return Settlement((), lines)


def rating_before(standing: Standing, played_unix_s: float) -> glicko2.Rating:
    """Return the rating going into a game: RD grown for the idle days since the last."""
    if standing.games == 0:
        return standing.rating
    idle_days = (played_unix_s - standing.last_played_unix_s) / SECONDS_PER_DAY
    return glicko2.decay(standing.rating, idle_days)


def _rated(
    result: Finished, standings: Mapping[PlayerId, Standing], played_unix_s: float
) -> Settlement:
    rows = [standings.get(p.player_id) or newcomer(p, played_unix_s) for p in result.players]
    before = [rating_before(row, played_unix_s) for row in rows]
    new_rows: list[Standing] = []
    lines: list[HistoryEntry] = []
    for seat, (player, row) in enumerate(zip(result.players, rows, strict=True)):
        won = seat == result.winner
        score = 1.0 if won else 0.0
        after = glicko2.rate(before[seat], [glicko2.Result(before[1 - seat], score)])
        new_rows.append(
            Standing(
                player.player_id,
                player.name,
                after,
                row.games + 1,
                row.wins + int(won),
                row.losses + int(not won),
                played_unix_s,
                # Name and guest flag as this game has them: a guest may have signed up since.
                player.guest,
                player.deleted,
            )
        )
        lines.append(_line(result, seat, row.rating.rating, after.rating, played_unix_s))
    return Settlement(tuple(new_rows), tuple(lines))


def _rating_of(standings: Mapping[PlayerId, Standing], player: Player) -> float | None:
    standing = standings.get(player.player_id)
    return None if standing is None else standing.rating.rating


def _line(
    result: MatchResult,
    seat: int,
    before: float | None,
    after: float | None,
    played_unix_s: float,
    uncounted_reason: str = "",
) -> HistoryEntry:
    """Return seat's history line; ``after`` None: unrated, the rating stays ``before``."""
    opponent = result.players[1 - seat]
    if isinstance(result, Voided):
        verdict = Verdict.VOID
    else:
        verdict = Verdict.WIN if seat == result.winner else Verdict.LOSS
    return HistoryEntry(
        match_id=result.match_id,
        seat=seat,
        player_id=result.players[seat].player_id,
        game=result.game,
        opponent_id=opponent.player_id,
        opponent_name=opponent.name,
        verdict=verdict,
        rated=after is not None,
        rating_before=before,
        rating_after=before if after is None else after,
        played_unix_s=played_unix_s,
        void_reason=result.reason if isinstance(result, Voided) else "",
        uncounted_reason=uncounted_reason,
        opponent_guest=opponent.guest,
        opponent_deleted=opponent.deleted,
    )
