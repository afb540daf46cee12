"""Schema migrations: applied once, idempotent, safe when processes start together."""

from __future__ import annotations

import asyncio
import sqlite3

import psycopg
import pytest

from services.common.database import Database, Session, Target
from services.common.migrations import Migration
from services.ratings.migrations import MIGRATIONS, migrate, schema_version
from services.ratings.store import Store

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
