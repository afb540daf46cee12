"""Fixtures of the accounts tests: the store on both backends, its clock set by the test.

Every storage test runs on SQLite (a file under tmp_path) and on PostgreSQL, in a fresh
schema from ``postgres_schema_url`` (tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import grpc
import pytest

from photofinish.accounts.v1 import accounts_pb2_grpc
from services.accounts.credentials import Credentials
from services.accounts.passkeys import Passkeys
from services.accounts.passwords import Hasher
from services.accounts.servicer import AccountsServicer
from services.accounts.signing import Signing
from services.accounts.store import Store
from services.common.database import Database, Postgres, SqliteFile, Target
from services.common.serving import Listen, grpc_server


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


@pytest.fixture
async def stub(store: Store, clock: Clock) -> AsyncIterator[accounts_pb2_grpc.AccountsAsyncStub]:
    """The Accounts service over a real channel, on the store under test (a cheap argon2)."""
    signing = Signing(store, Hasher(time_cost=1, memory_kib=8, parallelism=1))
    servicer = AccountsServicer(signing, Passkeys(Credentials(store.database, clock), store))

    def register(server: grpc.aio.Server) -> Sequence[str]:
        accounts_pb2_grpc.add_AccountsServicer_to_server(servicer, server)
        return ["photofinish.accounts.v1.Accounts"]

    async with (
        grpc_server(Listen("127.0.0.1", 0, 0), register) as (_, port, _health),
        grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel,
    ):
        yield accounts_pb2_grpc.AccountsStub(channel)
