"""Who is idle in a live tournament and whom each player met lately: the pairing's inputs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from services.common.identity import PlayerId
from services.tournaments.model import Entrant, GameStatus, TournamentGame
from services.tournaments.pairing import Idle
from services.tournaments.standings import Standing


def idle_players(
    entrants: Iterable[Entrant], games: Sequence[TournamentGame], standings: Sequence[Standing]
) -> list[Idle]:
    """Return the entrants who may be paired: not withdrawn and not in a game now.

    A player is idle since they joined or since their last game ended, whichever is later.
    """
    rank = {line.player_id: line.rank for line in standings}
    busy: set[PlayerId] = set()
    since: dict[PlayerId, int] = {}
    for game in games:
        if game.status is GameStatus.PLAYING:
            busy.update(game.players)
        elif game.ended_at_ms is not None:
            for player in game.players:
                since[player] = max(since.get(player, 0), game.ended_at_ms)
    return [
        Idle(
            e.player_id,
            rank.get(e.player_id, len(rank) + 1),
            max(e.joined_at_ms, since.get(e.player_id, 0)),
        )
        for e in entrants
        if not e.withdrawn and e.player_id not in busy
    ]


def recent_opponents(games: Sequence[TournamentGame]) -> dict[PlayerId, list[PlayerId]]:
    """Return each player's opponents in pairing order, oldest first (every game counts)."""
    met: dict[PlayerId, list[PlayerId]] = defaultdict(list)
    for game in sorted(games, key=lambda g: (g.paired_at_ms, g.match_id)):
        first, second = game.players
        met[first].append(second)
        met[second].append(first)
    return dict(met)
