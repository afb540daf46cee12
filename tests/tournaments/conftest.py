"""Fixtures of the tournaments tests: the store on both backends.

Every storage test runs on SQLite (a file under tmp_path) and on PostgreSQL, in a fresh
schema from ``postgres_schema_url`` (tests/conftest.py, which also starts the tests' own
nats-server); unreachable, the PostgreSQL variants skip, saying why.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from services.common.database import Database, Postgres, SqliteFile, Target
from services.tournaments.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Target:
    if request.param == "sqlite":
        return SqliteFile(tmp_path / "tournaments.sqlite3")
    return Postgres(str(request.getfixturevalue("postgres_schema_url")))


@pytest.fixture
async def store(target: Target) -> AsyncIterator[Store]:
    """Return a migrated store on the backend under test."""
    database = Database(target)
    await database.open()
    store = Store(database)
    await store.migrate()
    yield store
    await database.close()
