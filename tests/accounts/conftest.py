"""Fixtures of the accounts tests: the store on both backends, its clock set by the test.

Every storage test runs on SQLite (a file under tmp_path) and on PostgreSQL, in a fresh
schema from ``postgres_schema_url`` (tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from services.accounts.store import Store
from services.common.database import Database, Postgres, SqliteFile, Target


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Target:
    if request.param == "sqlite":
        return SqliteFile(tmp_path / "accounts.sqlite3")
    return Postgres(str(request.getfixturevalue("postgres_schema_url")))


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(target: Target, clock: Clock) -> AsyncIterator[Store]:
    """A migrated accounts store on the backend under test."""
    database = Database(target)
    await database.open()
    store = Store(database, clock)
    await store.migrate()
    yield store
    await database.close()
