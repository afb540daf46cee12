"""Fixtures of the ratings tests: the store on both backends.

Every storage test runs on SQLite (a file under tmp_path) and on PostgreSQL, in a fresh
schema from ``postgres_schema_url`` (tests/conftest.py, which also starts the tests' own
nats-server); unreachable, the PostgreSQL variants skip, saying why.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from services.common.database import Database, Postgres, SqliteFile, Target
from services.ratings.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_url(backend: str, request: pytest.FixtureRequest) -> str:
    """Return the DATABASE_URL a ratings process uses here ("" = SQLite in PF_DATA_DIR)."""
    if backend == "sqlite":
        return ""
    return str(request.getfixturevalue("postgres_schema_url"))


@pytest.fixture
def target(database_url: str, tmp_path: Path) -> Target:
    if not database_url:
        return SqliteFile(tmp_path / "ratings.sqlite3")
    return Postgres(database_url)


@pytest.fixture
async def store(target: Target) -> AsyncIterator[Store]:
    """Return a migrated store on the backend under test."""
    database = Database(target)
    await database.open()
    store = Store(database)
    await store.migrate()
    yield store
    await database.close()
