"""Fixtures of the ratings tests: both storage backends, a real nats-server.

Every storage test runs on SQLite (a file under tmp_path) and on PostgreSQL (a fresh
schema per test, dropped afterwards). PostgreSQL is the server at PF_TEST_POSTGRES_URL,
by default the CI machine's ``postgresql://postgres@127.0.0.1:5432/test`` with trust
auth; when it cannot be reached the PostgreSQL variants are skipped, saying why.
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
