"""The ratings database: record a result exactly once, read ladders, histories, ratings,
and forget a deleted account's name.

A result is counted by the one transaction that inserts its match id into ``results``;
the ratings and history it changes are written in that same transaction. A result seen
again (a redelivery, a republish past JetStream's dedupe window) finds its match id
taken and changes nothing, so the consumer may ack only after commit and still count
every result once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from games.registry import BY_NAME, GAMES, Game
from services.common.database import Database, Session
from services.ratings import ladder, migrations, moderation, reasons
from services.ratings.errors import NotRanked, Reason
from services.ratings.glicko2 import Rating
from services.ratings.model import (
    Finished,
    HistoryEntry,
    LadderEntry,
    MatchId,
    MatchResult,
    PlayerId,
    Recorded,
    Standing,
    Verdict,
    Voided,
)
from services.ratings.profile import ON_LADDER, Profile, profile, rank_of
from services.ratings.settlement import SECONDS_PER_DAY, newcomer, settle

# Every ``game`` column holds the game's registry name (games/registry.py), as stored
# since the first migration: a game is never renamed.
_STANDING = (
    "player_id, name, rating, rd, volatility, games, wins, losses, last_played_unix_s,"
    " guest, deleted"
)
_LINE = (
    "match_id, seat, player_id, game, opponent_id, opponent_name, verdict, rated,"
    " rating_before, rating_after, played_unix_s, void_reason, uncounted_reason,"
    " opponent_guest, opponent_deleted"
)
# Rated games between the same two players that count toward ratings in any 24 hours
# (docs/ratings.md says why 5).
RATED_PER_PAIR_PER_DAY = 5


class Store:
    """The ratings database behind the event loop: each call is one unit of work."""

    def __init__(
        self,
        database: Database,
        clock: Callable[[], float] = time.time,
        rated_per_pair_per_day: int = RATED_PER_PAIR_PER_DAY,
    ) -> None:
        self.database = database
        self._clock = clock
        self._per_pair = rated_per_pair_per_day

    async def migrate(self) -> tuple[int, ...]:
        """Bring the schema up to date; return the migration versions applied now."""
        now = self._clock()
        return await self.database.run(lambda s: migrations.migrate(s, now))

    async def record(self, result: MatchResult, played_unix_s: float) -> Recorded:
        """Store ``result`` and what it changes, once; return what was done."""
        return await self.database.run(lambda s: record(s, result, played_unix_s, self._per_pair))

    async def ladder(self, game: Game, limit: int) -> tuple[LadderEntry, ...]:
        return await self.database.run(lambda s: top(s, game, limit))

    async def ladder_around(
        self, game: Game, player_id: PlayerId, limit: int
    ) -> tuple[LadderEntry, ...]:
        """Return the page of ``game``'s ladder around ``player_id``.

        Raises:
            NotRanked: when the player has no line on that ladder.
        """
        return await self.database.run(lambda s: around(s, game, player_id, limit))

    async def history(
        self, player_id: PlayerId, game: Game | None, limit: int, offset: int = 0
    ) -> tuple[HistoryEntry, ...]:
        return await self.database.run(lambda s: history(s, player_id, game, limit, offset))

    async def standing(self, player_id: PlayerId, game: Game) -> Standing | None:
        return await self.database.run(lambda s: standing(s, player_id, game))

    async def rating(self, player_id: PlayerId, game: Game) -> tuple[Standing | None, bool]:
        """The player's ladder row (None before their first rated game), and whether the
        account is barred from rated play (marked, docs/fair-play.md)."""

        def read(session: Session) -> tuple[Standing | None, bool]:
            return standing(session, player_id, game), moderation.is_marked(session, player_id)

        return await self.database.run(read)

    async def profile(self, player_id: PlayerId) -> Profile:
        """The player's profile (``profile.profile``); empty games for a stranger."""

        def read(session: Session) -> Profile:
            rows = {game: standing(session, player_id, game) for game in GAMES}
            return profile(session, player_id, rows)

        return await self.database.run(read)

    async def forget(self, player_id: PlayerId, now_unix_s: float) -> None:
        """Blank a deleted account's name wherever ratings shows it (``forget``)."""
        await self.database.run(lambda s: forget(s, player_id, now_unix_s))


def record(
    session: Session,
    result: MatchResult,
    played_unix_s: float,
    per_pair: int = RATED_PER_PAIR_PER_DAY,
) -> Recorded:
    """Store ``result`` in one transaction; return DUPLICATE if its match id was taken.

    A rated result counts toward ratings unless the same two players already have
    ``per_pair`` counted games of that game in the 24 hours before it. A player whose
    account was deleted before it is recorded (a match that was being played) is written
    with the name blank.
    """
    rated = isinstance(result, Finished) and result.changes_ratings
    with session.transaction():
        if not _claim(session, result, rated, played_unix_s):
            return Recorded.DUPLICATE
        # Read after the claim, which a deletion being forgotten waits for (``forget``).
        result = _marked_deleted(session, result)
        standings: dict[PlayerId, Standing] = {}
        # Lock rows in player-id order, so two transactions never wait on each other.
        for player in sorted(result.players, key=lambda p: p.player_id):
            if rated:
                _ensure(session, result.game, newcomer(player, played_unix_s))
            found = _standing(session, player.player_id, result.game, lock=rated)
            if found is not None:
                standings[player.player_id] = found
        # Counted under the players' row locks: two results of one pair count one by one.
        uncounted = _uncounted(session, result, played_unix_s, per_pair) if rated else ""
        settlement = settle(result, standings, played_unix_s, uncounted)
        for row in settlement.standings:
            _update(session, result.game, row)
        for line in settlement.history:
            _insert_line(session, line)
    if isinstance(result, Voided):
        return Recorded.VOIDED
    if uncounted:
        return Recorded.UNCOUNTED
    return Recorded.RATED if rated else Recorded.UNRATED


def _uncounted(session: Session, result: MatchResult, played_unix_s: float, per_pair: int) -> str:
    """Return why a rated ``result`` does not count (a marked account played, or the pair's
    cap is reached), or ''."""
    if any(moderation.is_marked(session, p.player_id) for p in result.players):
        return reasons.BARRED
    return _over_pair_cap(session, result, played_unix_s, per_pair)


def _over_pair_cap(
    session: Session, result: MatchResult, played_unix_s: float, per_pair: int
) -> str:
    """Return why ``result`` does not count (the pair's cap is reached), or ''."""
    first, second = result.players
    counted = session.rows(
        "SELECT COUNT(*) FROM history WHERE player_id = ? AND game = ? AND opponent_id = ?"
        " AND rated = 1 AND played_unix_s > ?",
        (first.player_id, result.game.name, second.player_id, played_unix_s - SECONDS_PER_DAY),
    )[0][0]
    if int(counted) < per_pair:
        return ""
    return reasons.pair_capped(
        reasons.shown(first.name, first.deleted),
        reasons.shown(second.name, second.deleted),
        per_pair,
    )


def _marked_deleted(session: Session, result: MatchResult) -> MatchResult:
    """Return ``result`` with each player whose account was deleted named "" and marked."""
    ids = tuple(p.player_id for p in result.players)
    rows = session.rows("SELECT player_id FROM deleted_players WHERE player_id IN (?, ?)", ids)
    gone = {row[0] for row in rows}
    if not gone:
        return result
    first, second = (
        replace(p, name="", deleted=True) if p.player_id in gone else p for p in result.players
    )
    return replace(result, players=(first, second))


def forget(session: Session, player_id: PlayerId, now_unix_s: float) -> None:
    """Blank ``player_id``'s name on every ladder and in every opponent's line, and mark
    them deleted, in one transaction.

    Ratings, games and every number of the history stay. Forgetting again changes nothing,
    so a redelivered deletion is harmless; the player stays in ``deleted_players``, so a
    result recorded for them later is written blank (``record``).
    """
    with session.transaction():
        if session.dialect.name == "postgresql":
            # A result being recorded holds a row-exclusive lock on results from its claim
            # to its commit; SHARE waits for those and holds new claims until this commits.
            # So no result reads deleted_players before this commits and then writes the
            # name after the blanking below (two ratings processes on one database).
            # SQLite's BEGIN IMMEDIATE serialises writers already.
            session.execute("LOCK TABLE results IN SHARE MODE")
        session.execute(
            "INSERT INTO deleted_players (player_id, deleted_unix_s) VALUES (?, ?)"
            " ON CONFLICT (player_id) DO NOTHING",
            (player_id, now_unix_s),
        )
        _forget_in_reasons(session, player_id)
        session.execute(
            "UPDATE ladder SET name = '', deleted = 1 WHERE player_id = ?", (player_id,)
        )
        session.execute(
            "UPDATE history SET opponent_name = '', opponent_deleted = 1 WHERE opponent_id = ?",
            (player_id,),
        )


def _forget_in_reasons(session: Session, player_id: PlayerId) -> None:
    """Rewrite the pair-cap reasons that name ``player_id`` to name a deleted player.

    Run before the names are blanked: it reads them from each match's two lines, which
    name each other (each line's opponent is the other seat).
    """
    rows = session.rows(
        "SELECT match_id, seat, opponent_id, opponent_name, uncounted_reason FROM history"
        " WHERE match_id IN (SELECT match_id FROM history WHERE opponent_id = ?"
        " AND uncounted_reason <> '')",
        (player_id,),
    )
    seated: dict[str, dict[int, tuple[str, str]]] = {}
    stored: dict[str, str] = {}
    for match_id, seat, opponent_id, opponent_name, reason in rows:
        seated.setdefault(match_id, {})[1 - int(seat)] = (opponent_id, opponent_name)
        stored[match_id] = reason
    for match_id, seats in seated.items():
        if len(seats) < 2:
            continue
        reason = stored[match_id]
        reworded = reasons.unnamed(reason, (seats[0], seats[1]), player_id)
        if reworded != reason:
            session.execute(
                "UPDATE history SET uncounted_reason = ? WHERE match_id = ?", (reworded, match_id)
            )


def top(session: Session, game: Game, limit: int) -> tuple[LadderEntry, ...]:
    """Return the first ``limit`` lines of ``game``'s ladder, ranked."""
    rows = session.rows(
        f"SELECT {_STANDING} FROM ladder WHERE game = ? AND games > 0{ON_LADDER}"
        " ORDER BY rating DESC, games DESC,"
        f" player_id COLLATE {session.dialect.binary_collation} LIMIT ?",
        (game.name, limit),
    )
    return ladder.rank(_to_standing(row) for row in rows)


def around(
    session: Session, game: Game, player_id: PlayerId, limit: int
) -> tuple[LadderEntry, ...]:
    """Return the ``limit`` lines of ``game``'s ladder around ``player_id``, ranked.

    Raises:
        NotRanked: when the player has no line on that ladder.
    """
    found = standing(session, player_id, game)
    if found is None or moderation.is_marked(session, player_id):
        raise NotRanked(Reason.NOT_RANKED, f"{player_id} has no rated {game.name} game")
    collation = session.dialect.binary_collation
    rank, total = rank_of(session, game, found)
    first = ladder.page_start(rank, total, limit)
    rows = session.rows(
        f"SELECT {_STANDING} FROM ladder WHERE game = ? AND games > 0{ON_LADDER}"
        f" ORDER BY rating DESC, games DESC, player_id COLLATE {collation} LIMIT ? OFFSET ?",
        (game.name, limit, first - 1),
    )
    return ladder.rank((_to_standing(row) for row in rows), first)


def history(
    session: Session, player_id: PlayerId, game: Game | None, limit: int, offset: int = 0
) -> tuple[HistoryEntry, ...]:
    """Return ``player_id``'s matches of ``game`` (None: of every game), newest first: at
    most ``limit`` of them, after the ``offset`` newest."""
    games = "" if game is None else " AND game = ?"
    rows = session.rows(
        f"SELECT {_LINE} FROM history WHERE player_id = ?{games}"
        " ORDER BY played_unix_s DESC,"
        f" match_id COLLATE {session.dialect.binary_collation} DESC, seat LIMIT ? OFFSET ?",
        (player_id, *(() if game is None else (game.name,)), limit, offset),
    )
    return tuple(_to_line(row) for row in rows)


def standing(session: Session, player_id: PlayerId, game: Game) -> Standing | None:
    """Return the player's ladder row, or None before their first rated game."""
    found = _standing(session, player_id, game, lock=False)
    return found if found is not None and found.games > 0 else None


def _claim(session: Session, result: MatchResult, rated: bool, played_unix_s: float) -> bool:
    """Insert the result's row; return False when its match id is already there."""
    if isinstance(result, Finished):
        kind, winner, mode, reason, figures = "finished", result.winner, result.mode.value, "", ""
    else:
        kind, winner, mode, reason, figures = "voided", None, None, result.reason, result.figures
    inserted = session.execute(
        "INSERT INTO results (match_id, kind, game, rated, winner, mode, void_reason,"
        " figures, played_unix_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (match_id) DO NOTHING",
        (
            result.match_id,
            kind,
            result.game.name,
            int(rated),
            winner,
            mode,
            reason,
            figures,
            played_unix_s,
        ),
    )
    return inserted == 1


def _ensure(session: Session, game: Game, row: Standing) -> None:
    """Create the player's ladder row with 0 games unless it exists."""
    session.execute(
        f"INSERT INTO ladder (game, {_STANDING}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (game, player_id) DO NOTHING",
        (game.name, *_standing_values(row)),
    )


def _standing(session: Session, player_id: PlayerId, game: Game, lock: bool) -> Standing | None:
    rows = session.rows(
        f"SELECT {_STANDING} FROM ladder WHERE game = ? AND player_id = ?"
        + (session.dialect.lock_rows if lock else ""),
        (game.name, player_id),
    )
    return _to_standing(rows[0]) if rows else None


def _update(session: Session, game: Game, row: Standing) -> None:
    values = _standing_values(row)
    session.execute(
        "UPDATE ladder SET name = ?, rating = ?, rd = ?, volatility = ?, games = ?, wins = ?,"
        " losses = ?, last_played_unix_s = ?, guest = ?, deleted = ?"
        " WHERE game = ? AND player_id = ?",
        (*values[1:], game.name, row.player_id),
    )


def _insert_line(session: Session, line: HistoryEntry) -> None:
    session.execute(
        f"INSERT INTO history ({_LINE}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            line.match_id,
            line.seat,
            line.player_id,
            line.game.name,
            line.opponent_id,
            line.opponent_name,
            line.verdict.value,
            int(line.rated),
            line.rating_before,
            line.rating_after,
            line.played_unix_s,
            line.void_reason,
            line.uncounted_reason,
            int(line.opponent_guest),
            int(line.opponent_deleted),
        ),
    )


def _standing_values(row: Standing) -> tuple[object, ...]:
    r = row.rating
    return (
        row.player_id,
        row.name,
        r.rating,
        r.rd,
        r.volatility,
        row.games,
        row.wins,
        row.losses,
        row.last_played_unix_s,
        int(row.guest),
        int(row.deleted),
    )


def _to_standing(row: Sequence[Any]) -> Standing:
    player_id, name, rating, rd, volatility, games, wins, losses, last_played, guest, deleted = row
    return Standing(
        PlayerId(player_id),
        name,
        Rating(float(rating), float(rd), float(volatility)),
        int(games),
        int(wins),
        int(losses),
        float(last_played),
        bool(guest),
        bool(deleted),
    )


def _to_line(row: Sequence[Any]) -> HistoryEntry:
    match_id, seat, player_id, game, opponent_id, opponent_name, verdict, rated = row[:8]
    before, after, played, void_reason, uncounted_reason, opponent_guest, opponent_deleted = row[8:]
    return HistoryEntry(
        MatchId(match_id),
        int(seat),
        PlayerId(player_id),
        BY_NAME[game],
        PlayerId(opponent_id),
        opponent_name,
        Verdict(verdict),
        bool(rated),
        None if before is None else float(before),
        None if after is None else float(after),
        float(played),
        void_reason,
        uncounted_reason,
        bool(opponent_guest),
        bool(opponent_deleted),
    )
