"""Fixtures of the tournaments tests: both storage backends, a real nats-server.

Every storage test runs on SQLite (a file under tmp_path) and on PostgreSQL (a fresh
schema per test, dropped afterwards) at PF_TEST_POSTGRES_URL, by default the CI machine's
``postgresql://postgres@127.0.0.1:5432/test``; unreachable, the PostgreSQL variants skip.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest

from services.common.database import Database, Postgres, SqliteFile, Target
from services.stack.natsd import NatsServer, start_nats
from services.tournaments.store import Store

POSTGRES_URL = os.environ.get("PF_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """Return the test server's URL, or skip when nothing answers there."""
    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
    except psycopg.OperationalError as error:
        pytest.skip(f"PostgreSQL unreachable at {POSTGRES_URL}: {error}".strip())
    return POSTGRES_URL


@pytest.fixture
def postgres_schema_url(postgres_url: str) -> Iterator[str]:
    """Return a URL whose tables live in a fresh schema, dropped after the test."""
    schema = f"tournaments_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in postgres_url else "?"
    yield f"{postgres_url}{separator}options={quote(f'-csearch_path={schema}')}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")


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


@pytest.fixture
async def nats_server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    server = await start_nats(tmp_path / "nats")
    yield server
    await server.stop()
