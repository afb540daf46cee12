"""Standings: every entrant's score from the games that count, ranked with tie-breaks.

Ranking, best first:
1. more points;
2. the score reached earlier — the moment the player's points last grew (the end of their
   last scoring game; a player still on 0 points reached it on joining): who got there
   first stays ahead, as in Lichess arenas, so stalling cannot overtake;
3. the player id, which is arbitrary but stable, so equal players never swap places.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from services.common.identity import PlayerId
from services.tournaments.model import Entrant, GameStatus, TournamentGame
from services.tournaments.scoring import Score


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    player_id: PlayerId
    name: str  # "" for a deleted account
    score: Score
    reached_at_ms: int  # when ``score.points`` was reached (the second tie-break)
    playing: bool
    withdrawn: bool
    guest: bool = False
    deleted: bool = False


def rank(entrants: Iterable[Entrant], games: Sequence[TournamentGame]) -> tuple[Standing, ...]:
    """Return the standings of ``entrants`` over ``games`` (in pairing order), best first."""
    scores: dict[PlayerId, Score] = {}
    reached: dict[PlayerId, int] = {}
    playing: set[PlayerId] = set()
    people = list(entrants)
    for entrant in people:
        scores[entrant.player_id] = Score()
        reached[entrant.player_id] = entrant.joined_at_ms
    for game in sorted(games, key=lambda g: (g.paired_at_ms, g.match_id)):
        if game.status is GameStatus.PLAYING:
            playing.update(game.players)
        if game.status is not GameStatus.FINISHED or game.winner is None:
            continue
        for seat, player in enumerate(game.players):
            if player not in scores:
                continue  # not an entrant (cannot happen through the service)
            before = scores[player]
            scores[player] = before.after(seat == game.winner)
            if scores[player].points > before.points and game.ended_at_ms is not None:
                reached[player] = game.ended_at_ms
    order = sorted(
        people,
        key=lambda e: (-scores[e.player_id].points, reached[e.player_id], e.player_id),
    )
    return tuple(
        Standing(
            index + 1,
            e.player_id,
            e.name,
            scores[e.player_id],
            reached[e.player_id],
            e.player_id in playing,
            e.withdrawn,
            e.guest,
            e.deleted,
        )
        for index, e in enumerate(order)
    )
