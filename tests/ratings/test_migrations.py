"""Schema migrations: applied once, idempotent, safe when processes start together; ratings
of an earlier schema kept."""

from __future__ import annotations

import asyncio
import sqlite3

import psycopg
import pytest

from games.registry import SPIT
from services.common.database import Database, Session, Target
from services.common.migrations import Migration
from services.ratings.migrations import MIGRATIONS, migrate, schema_version
from services.ratings.model import PlayerId, Recorded
from services.ratings.store import Store
from tests.ratings.results import win

LATEST = MIGRATIONS[-1].version


async def _opened(target: Target) -> Database:
    database = Database(target)
    await database.open()
    return database


async def test_a_fresh_database_gets_every_migration_and_a_second_start_applies_none(
    target: Target,
) -> None:
    database = await _opened(target)
    try:
        store = Store(database)
        assert await store.migrate() == tuple(m.version for m in MIGRATIONS)
        assert await store.migrate() == ()
        assert await database.run(schema_version) == LATEST
    finally:
        await database.close()


async def test_processes_starting_at_once_apply_each_migration_once(target: Target) -> None:
    databases = [await _opened(target) for _ in range(4)]
    try:
        applied = await asyncio.gather(*(Store(d).migrate() for d in databases))
        assert sorted(applied) == [(), (), (), tuple(m.version for m in MIGRATIONS)]
        rows = await databases[0].run(lambda s: s.rows("SELECT version FROM schema_version"))
        assert sorted(row[0] for row in rows) == [m.version for m in MIGRATIONS]
    finally:
        for database in databases:
            await database.close()


async def test_a_later_migration_is_applied_on_top_of_an_earlier_schema(target: Target) -> None:
    extra = Migration(LATEST + 1, "a test column", ("ALTER TABLE results ADD COLUMN note TEXT",))
    database = await _opened(target)
    try:
        assert await database.run(lambda s: migrate(s, 0.0)) != ()
        assert await database.run(lambda s: migrate(s, 0.0, (*MIGRATIONS, extra))) == (
            extra.version,
        )
        assert await database.run(schema_version) == extra.version
    finally:
        await database.close()


async def test_a_failing_migration_leaves_the_schema_as_it_was(target: Target) -> None:
    broken = Migration(1, "half done", ("CREATE TABLE half (a INTEGER)", "NOT SQL AT ALL"))
    database = await _opened(target)

    def versions(session: Session) -> int:
        return len(session.rows("SELECT version FROM schema_version"))

    try:
        with pytest.raises((sqlite3.OperationalError, psycopg.errors.SyntaxError)):
            await database.run(lambda s: migrate(s, 0.0, (broken,)))
        # Nothing of the failed transaction stayed: the table can be created afresh.
        await database.run(lambda s: s.execute("CREATE TABLE half (a INTEGER)"))
        await database.run(lambda s: migrate(s, 0.0))
        assert await database.run(versions) == len(MIGRATIONS)
    finally:
        await database.close()


def test_migrations_out_of_order_are_refused() -> None:
    with pytest.raises(ValueError, match="increase"):
        migrate(None, 0.0, (MIGRATIONS[0], MIGRATIONS[0]))  # type: ignore[arg-type]


# Ratings as the second schema holds them, from before accounts: guests' "g_" ids, one
# account's "a_" id, and "gxzed", which a LIKE 'g_%' would take for a guest's.
_LADDER = (
    ("g_ann", "Ann", 1620.5, 80.0, 0.06, 7, 5, 2),
    ("g_bob", "Bob", 1480.25, 90.0, 0.061, 6, 2, 4),
    ("a_cat", "Cat", 1550.0, 120.0, 0.09, 2, 1, 1),
    ("gxzed", "Zed", 1400.0, 200.0, 0.09, 1, 0, 1),
)
# match id, seat, player, opponent, opponent's name, verdict, rating before and after.
_LINES = (
    ("m1", 0, "g_ann", "g_bob", "Bob", "win", 1600.0, 1620.5),
    ("m1", 1, "g_bob", "g_ann", "Ann", "loss", 1500.0, 1480.25),
    ("m2", 0, "a_cat", "gxzed", "Zed", "win", 1500.0, 1550.0),
    ("m2", 1, "gxzed", "a_cat", "Cat", "loss", 1500.0, 1400.0),
)


def _write_schema_2_ratings(session: Session) -> None:
    for player_id, name, rating, rd, volatility, games, wins, losses in _LADDER:
        session.execute(
            "INSERT INTO ladder (game, player_id, name, rating, rd, volatility, games, wins,"
            " losses, last_played_unix_s) VALUES ('spit', ?, ?, ?, ?, ?, ?, ?, ?, 1.7e9)",
            (player_id, name, rating, rd, volatility, games, wins, losses),
        )
    for match_id in ("m1", "m2"):
        session.execute(
            "INSERT INTO results (match_id, kind, game, rated, winner, mode, void_reason,"
            " figures, played_unix_s) VALUES (?, 'finished', 'spit', 1, 0, 1, '', '', 1.7e9)",
            (match_id,),
        )
    for match_id, seat, player_id, opponent_id, name, verdict, before, after in _LINES:
        session.execute(
            "INSERT INTO history (match_id, seat, player_id, game, opponent_id, opponent_name,"
            " verdict, rated, rating_before, rating_after, played_unix_s, void_reason,"
            " uncounted_reason) VALUES (?, ?, ?, 'spit', ?, ?, ?, 1, ?, ?, 1.7e9, '', '')",
            (match_id, seat, player_id, opponent_id, name, verdict, before, after),
        )


async def test_ratings_of_the_second_schema_migrate_with_g_ids_taken_for_guests(
    target: Target,
) -> None:
    database = await _opened(target)
    try:
        await database.run(lambda s: migrate(s, 0.0, MIGRATIONS[:2]))
        await database.run(_write_schema_2_ratings)
        store = Store(database)
        assert await store.migrate() == (3, 4)

        ladder = {e.standing.player_id: e.standing for e in await store.ladder(SPIT, 10)}
        assert {
            p: (s.name, s.rating.rating, s.rating.rd, s.rating.volatility, s.games, s.wins)
            for p, s in ladder.items()
        } == {row[0]: (row[1], *row[2:7]) for row in _LADDER}
        assert {p: (s.guest, s.deleted) for p, s in ladder.items()} == {
            "g_ann": (True, False),
            "g_bob": (True, False),
            "a_cat": (False, False),
            "gxzed": (False, False),
        }
        lines = {
            (x.match_id, x.player_id): x
            for p in ladder
            for x in await store.history(PlayerId(p), SPIT, 10)
        }
        assert {
            key: (x.opponent_id, x.opponent_name, x.verdict.value, x.rating_before, x.rating_after)
            for key, x in lines.items()
        } == {(row[0], row[2]): (row[3], *row[4:]) for row in _LINES}
        assert {key: x.opponent_guest for key, x in lines.items()} == {
            ("m1", "g_ann"): True,
            ("m1", "g_bob"): True,
            ("m2", "a_cat"): False,
            ("m2", "gxzed"): False,
        }
        assert not any(x.opponent_deleted for x in lines.values())
        # The new table is there and empty; results keep counting once.
        assert await database.run(lambda s: s.rows("SELECT * FROM deleted_players")) == []
        assert await store.record(win("m1", "g_ann", "g_bob"), 1.8e9) is Recorded.DUPLICATE
    finally:
        await database.close()
