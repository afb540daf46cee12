"""Tournaments, entrants, games, final standings and the deleted players in SQLite or
PostgreSQL, one code path.

Every method hands one unit of work to the database's thread (services/common/database.py).
A result is recorded by moving its game out of PLAYING in one UPDATE, so a redelivered
result changes nothing: each match counts exactly once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from games.registry import BY_NUMBER
from services.common.database import Database, Session
from services.common.identity import PlayerId
from services.tournaments import migrations
from services.tournaments.model import (
    Entrant,
    GameStatus,
    Status,
    Tournament,
    TournamentGame,
    TournamentId,
)
from services.tournaments.scoring import Score
from services.tournaments.standings import Standing

_TOURNAMENT_COLUMNS = (
    "tournament_id, name, game, rated, starts_at_ms, duration_s, status, created_by, creator_id"
)
_GAME_COLUMNS = "match_id, player0, player1, paired_at_ms, status, winner, ended_at_ms"


class Store:
    """The tournaments service's storage."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def migrate(self) -> tuple[int, ...]:
        return await self.database.run(lambda s: migrations.migrate(s, time.time()))

    async def create(self, tournament: Tournament, created_at_ms: int) -> None:
        await self.database.run(lambda s: _insert(s, tournament, created_at_ms))

    async def create_within(
        self, tournament: Tournament, created_at_ms: int, most_open: int
    ) -> int:
        """Store ``tournament`` unless its creator has ``most_open`` unfinished ones already;
        return how many they had (``most_open`` or more: nothing was stored).

        The count and the insert are one transaction, handed to the database's one thread
        as one unit, so two creations at once cannot both pass the count.
        """
        t = tournament

        def work(s: Session) -> int:
            with s.transaction():
                rows = s.rows(
                    "SELECT COUNT(*) FROM tournaments WHERE creator_id = ? AND status <> ?",
                    (t.creator_id, Status.FINISHED.value),
                )
                held = int(rows[0][0])
                if held < most_open:
                    _insert(s, t, created_at_ms)
            return held

        return await self.database.run(work)

    async def tournament(self, tournament_id: str) -> Tournament | None:
        rows = await self.database.run(
            lambda s: s.rows(
                f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE tournament_id = ?",
                (tournament_id,),
            )
        )
        return _tournament(rows[0]) if rows else None

    async def tournaments(self, statuses: Sequence[Status], limit: int) -> list[Tournament]:
        """Return tournaments in ``statuses``: unfinished by start, then finished newest first."""
        values = [s.value for s in statuses] or [s.value for s in Status]
        marks = ", ".join("?" for _ in values)
        finished = Status.FINISHED.value
        rows = await self.database.run(
            lambda s: s.rows(
                f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE status IN ({marks})"
                f" ORDER BY CASE WHEN status = {finished} THEN 1 ELSE 0 END,"
                f" CASE WHEN status = {finished} THEN -starts_at_ms ELSE starts_at_ms END,"
                " tournament_id LIMIT ?",
                (*values, limit),
            )
        )
        return [_tournament(row) for row in rows]

    async def set_status(self, tournament_id: TournamentId, status: Status) -> None:
        await self.database.run(
            lambda s: s.execute(
                "UPDATE tournaments SET status = ? WHERE tournament_id = ?",
                (status.value, tournament_id),
            )
        )

    async def join(self, tournament_id: TournamentId, entrant: Entrant) -> None:
        """Enter ``entrant``, or bring them back if they had withdrawn (their score stays).

        Joining again records the guest flag of now (a guest may have signed up since);
        the name stays as first entered, and a deleted player's is entered blank.
        """
        e = entrant

        def work(s: Session) -> None:
            with s.transaction():
                gone = _is_deleted(s, e.player_id)
                s.execute(
                    "INSERT INTO entrants (tournament_id, player_id, name, joined_at_ms,"
                    " withdrawn, guest, deleted) VALUES (?, ?, ?, ?, 0, ?, ?)"
                    " ON CONFLICT (tournament_id, player_id)"
                    " DO UPDATE SET withdrawn = 0, guest = excluded.guest",
                    (
                        tournament_id,
                        e.player_id,
                        "" if gone else e.name,
                        e.joined_at_ms,
                        int(e.guest),
                        int(gone),
                    ),
                )

        await self.database.run(work)

    async def withdraw(self, tournament_id: TournamentId, player_id: PlayerId) -> bool:
        """Stop pairing ``player_id``; return whether they were entered and not withdrawn."""
        changed = await self.database.run(
            lambda s: s.execute(
                "UPDATE entrants SET withdrawn = 1"
                " WHERE tournament_id = ? AND player_id = ? AND withdrawn = 0",
                (tournament_id, player_id),
            )
        )
        return changed == 1

    async def entrants(self, tournament_id: TournamentId) -> list[Entrant]:
        rows = await self.database.run(
            lambda s: s.rows(
                "SELECT player_id, name, joined_at_ms, withdrawn, guest, deleted FROM entrants"
                " WHERE tournament_id = ? ORDER BY joined_at_ms, player_id",
                (tournament_id,),
            )
        )
        return [
            Entrant(PlayerId(r[0]), r[1], int(r[2]), bool(r[3]), bool(r[4]), bool(r[5]))
            for r in rows
        ]

    async def games(self, tournament_id: TournamentId) -> list[TournamentGame]:
        """Return the tournament's games in pairing order."""
        rows = await self.database.run(
            lambda s: s.rows(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE tournament_id = ?"
                " ORDER BY paired_at_ms, match_id",
                (tournament_id,),
            )
        )
        return [_game(row) for row in rows]

    async def add_game(self, tournament_id: TournamentId, game: TournamentGame) -> None:
        g = game
        await self.database.run(
            lambda s: s.execute(
                f"INSERT INTO games (tournament_id, {_GAME_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament_id,
                    g.match_id,
                    g.players[0],
                    g.players[1],
                    g.paired_at_ms,
                    g.status.value,
                    g.winner,
                    g.ended_at_ms,
                ),
            )
        )

    async def forget_game(self, match_id: str) -> None:
        """Remove a game whose match could not be opened."""
        await self.database.run(
            lambda s: s.execute(
                "DELETE FROM games WHERE match_id = ? AND status = ?",
                (match_id, GameStatus.PLAYING.value),
            )
        )

    async def record_result(
        self, match_id: str, status: GameStatus, winner: int | None, ended_at_ms: int
    ) -> TournamentId | None:
        """End a playing game; return its tournament (None: not ours, or ended already)."""

        def work(s: Session) -> TournamentId | None:
            with s.transaction():
                changed = s.execute(
                    "UPDATE games SET status = ?, winner = ?, ended_at_ms = ?"
                    " WHERE match_id = ? AND status = ?",
                    (status.value, winner, ended_at_ms, match_id, GameStatus.PLAYING.value),
                )
                if changed != 1:
                    return None
                rows = s.rows("SELECT tournament_id FROM games WHERE match_id = ?", (match_id,))
            return TournamentId(rows[0][0])

        return await self.database.run(work)

    async def abandon_playing(self, tournament_id: TournamentId, now_ms: int) -> int:
        """Mark the games still playing as abandoned; return how many there were."""
        return await self.database.run(
            lambda s: s.execute(
                "UPDATE games SET status = ?, ended_at_ms = ?"
                " WHERE tournament_id = ? AND status = ?",
                (
                    GameStatus.ABANDONED.value,
                    now_ms,
                    tournament_id,
                    GameStatus.PLAYING.value,
                ),
            )
        )

    async def finish(self, tournament_id: TournamentId, standings: Sequence[Standing]) -> None:
        """Store the final standings and mark the tournament finished, in one transaction.

        A player deleted since ``standings`` were ranked is stored with a blank name.
        """

        def work(s: Session) -> None:
            with s.transaction():
                rows = s.rows(
                    "SELECT player_id FROM entrants WHERE tournament_id = ? AND deleted = 1",
                    (tournament_id,),
                )
                gone = {row[0] for row in rows}
                s.execute("DELETE FROM final_standings WHERE tournament_id = ?", (tournament_id,))
                for line in standings:
                    s.execute(
                        "INSERT INTO final_standings (tournament_id, rank, player_id, name,"
                        " points, games, wins, streak, sheet, reached_at_ms, withdrawn)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            tournament_id,
                            line.rank,
                            line.player_id,
                            "" if line.player_id in gone else line.name,
                            line.score.points,
                            line.score.games,
                            line.score.wins,
                            line.score.streak,
                            " ".join(str(p) for p in line.score.sheet),
                            line.reached_at_ms,
                            int(line.withdrawn),
                        ),
                    )
                s.execute(
                    "UPDATE tournaments SET status = ? WHERE tournament_id = ?",
                    (Status.FINISHED.value, tournament_id),
                )

        await self.database.run(work)

    async def final_standings(self, tournament_id: TournamentId) -> list[Standing]:
        """Return the stored final standings, each marked guest or deleted as its entrant is."""
        rows = await self.database.run(
            lambda s: s.rows(
                "SELECT f.rank, f.player_id, f.name, f.points, f.games, f.wins, f.streak,"
                " f.sheet, f.reached_at_ms, f.withdrawn,"
                " COALESCE(e.guest, 0), COALESCE(e.deleted, 0)"
                " FROM final_standings f LEFT JOIN entrants e"
                " ON e.tournament_id = f.tournament_id AND e.player_id = f.player_id"
                " WHERE f.tournament_id = ? ORDER BY f.rank",
                (tournament_id,),
            )
        )
        return [_standing(row) for row in rows]

    async def player_tournaments(
        self, player_id: str, limit: int
    ) -> tuple[int, list[tuple[Tournament, int, int, int]]]:
        """How many tournaments ``player_id`` entered, and their best ``limit`` finishes:
        (tournament, rank, how many were ranked, points), best rank first, then the newest."""

        def read(s: Session) -> tuple[int, list[tuple[Tournament, int, int, int]]]:
            entered = s.rows("SELECT COUNT(*) FROM entrants WHERE player_id = ?", (player_id,))
            columns = ", ".join(f"t.{c.strip()}" for c in _TOURNAMENT_COLUMNS.split(","))
            rows = s.rows(
                f"SELECT {columns}, f.rank, f.points,"
                " (SELECT COUNT(*) FROM final_standings o WHERE o.tournament_id = f.tournament_id)"
                " FROM final_standings f JOIN tournaments t ON t.tournament_id = f.tournament_id"
                " WHERE f.player_id = ? ORDER BY f.rank, t.starts_at_ms DESC, t.tournament_id"
                " LIMIT ?",
                (player_id, limit),
            )
            width = len(_TOURNAMENT_COLUMNS.split(","))
            best = [
                (
                    _tournament(row[:width]),
                    int(row[width]),
                    int(row[width + 2]),
                    int(row[width + 1]),
                )
                for row in rows
            ]
            return int(entered[0][0]), best

        return await self.database.run(read)

    async def forget(self, player_id: PlayerId, now_unix_s: float) -> None:
        """Blank a deleted account's name wherever it is kept, in one transaction.

        Points, games and ranks stay. The player is withdrawn from the tournaments not yet
        finished: a deleted account plays no more, and pairing it would leave an opponent
        waiting out a game nobody plays. Forgetting again changes nothing, so a redelivered
        deletion is harmless; the player stays listed, so a name written for them again
        (a join, final standings being stored) is written blank.
        """

        def work(s: Session) -> None:
            with s.transaction():
                s.execute(
                    "INSERT INTO tournaments_deleted_players (player_id, deleted_unix_s)"
                    " VALUES (?, ?) ON CONFLICT (player_id) DO NOTHING",
                    (player_id, now_unix_s),
                )
                s.execute(
                    "UPDATE entrants SET name = '', deleted = 1 WHERE player_id = ?",
                    (player_id,),
                )
                s.execute(
                    "UPDATE entrants SET withdrawn = 1 WHERE player_id = ? AND tournament_id IN"
                    " (SELECT tournament_id FROM tournaments WHERE status <> ?)",
                    (player_id, Status.FINISHED.value),
                )
                s.execute("UPDATE final_standings SET name = '' WHERE player_id = ?", (player_id,))
                # The list of tournaments omits a blank creator's name.
                s.execute(
                    "UPDATE tournaments SET created_by = '' WHERE creator_id = ?", (player_id,)
                )

        await self.database.run(work)


def _insert(s: Session, t: Tournament, created_at_ms: int) -> None:
    s.execute(
        f"INSERT INTO tournaments ({_TOURNAMENT_COLUMNS}, created_at_ms)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            t.id,
            t.name,
            t.game.number,
            int(t.rated),
            t.starts_at_ms,
            t.duration_s,
            t.status.value,
            t.created_by,
            t.creator_id,
            created_at_ms,
        ),
    )


def _tournament(row: tuple[Any, ...]) -> Tournament:
    return Tournament(
        TournamentId(row[0]),
        row[1],
        BY_NUMBER[int(row[2])],
        bool(row[3]),
        int(row[4]),
        int(row[5]),
        Status(int(row[6])),
        row[7],
        PlayerId(row[8]),
    )


def _game(row: tuple[Any, ...]) -> TournamentGame:
    return TournamentGame(
        row[0],
        (PlayerId(row[1]), PlayerId(row[2])),
        int(row[3]),
        GameStatus(int(row[4])),
        None if row[5] is None else int(row[5]),
        None if row[6] is None else int(row[6]),
    )


def _is_deleted(s: Session, player_id: PlayerId) -> bool:
    rows = s.rows("SELECT 1 FROM tournaments_deleted_players WHERE player_id = ?", (player_id,))
    return bool(rows)


def _standing(row: tuple[Any, ...]) -> Standing:
    sheet = tuple(int(p) for p in str(row[7]).split())
    score = Score(int(row[3]), int(row[4]), int(row[5]), int(row[6]), sheet)
    return Standing(
        int(row[0]),
        PlayerId(row[1]),
        row[2],
        score,
        int(row[8]),
        False,
        bool(row[9]),
        bool(row[10]),
        bool(row[11]),
    )
