"""One way to talk to SQLite and PostgreSQL: qmark SQL on a connection owned by one thread.

The two differ only where they must: how a connection opens, the placeholder style, how a
write transaction begins (SQLite's ``BEGIN IMMEDIATE`` takes the database's write lock up
front, which serialises writers as PostgreSQL's row locks do), the row-lock suffix, the
lock that keeps two starting processes from migrating at once, and the byte-wise
collation. Every call runs on the database's own thread, so the event loop never blocks
and SQLite's connection never changes threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import psycopg

T = TypeVar("T")

SQLITE_BUSY_TIMEOUT_S = 30.0


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str
    placeholder: str  # what each "?" of the SQL becomes
    begin: str  # starts a write transaction
    lock_rows: str  # appended to a SELECT of rows about to be updated
    binary_collation: str  # compares text as bytes, as Python compares str

    def lock_schema(self, key: int) -> str:
        """Return the statement that serialises migrations under ``key`` ("" when begin does)."""
        return f"SELECT pg_advisory_xact_lock({key})" if self.name == "postgresql" else ""


SQLITE = Dialect("sqlite", "?", "BEGIN IMMEDIATE", "", "BINARY")
POSTGRES = Dialect("postgresql", "%s", "BEGIN", " FOR UPDATE", '"C"')


@dataclass(frozen=True, slots=True)
class SqliteFile:
    """The embedded default: one SQLite file."""

    path: Path


@dataclass(frozen=True, slots=True)
class Postgres:
    """A PostgreSQL server, by libpq URL (``postgresql://user@host:port/db?options=...``)."""

    url: str


Target = SqliteFile | Postgres


class _Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchall(self) -> list[Any]: ...


Execute = Callable[[str, Sequence[object]], _Cursor]


class Session:
    """A connection in autocommit mode that speaks qmark SQL; used by one thread only."""

    def __init__(self, dialect: Dialect, execute: Execute, close: Callable[[], None]) -> None:
        self.dialect = dialect
        self._execute = execute
        self._close = close

    def execute(self, sql: str, params: Sequence[object] = ()) -> int:
        """Run one statement; return how many rows it changed."""
        return self._execute(self._sql(sql), params).rowcount

    def rows(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Run one query; return its rows as tuples."""
        return [tuple(row) for row in self._execute(self._sql(sql), params).fetchall()]

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Commit what the block did, or roll it all back if the block raises."""
        self._execute(self.dialect.begin, ())
        try:
            yield
        except BaseException:
            self._execute("ROLLBACK", ())
            raise
        self._execute("COMMIT", ())

    def close(self) -> None:
        self._close()

    def _sql(self, sql: str) -> str:
        return (
            sql if self.dialect.placeholder == "?" else sql.replace("?", self.dialect.placeholder)
        )


def connect(target: Target) -> Session:
    """Return a session on ``target`` (blocking: call it on the database's thread)."""
    if isinstance(target, Postgres):
        pg = psycopg.connect(target.url, autocommit=True)

        def pg_execute(sql: str, params: Sequence[object]) -> _Cursor:
            return pg.execute(sql, params)

        return Session(POSTGRES, pg_execute, pg.close)
    target.path.parent.mkdir(parents=True, exist_ok=True)
    lite = sqlite3.connect(target.path, timeout=SQLITE_BUSY_TIMEOUT_S, isolation_level=None)
    lite.execute("PRAGMA journal_mode=WAL")
    # FULL: a commit survives power loss too, so an acked result is never lost.
    lite.execute("PRAGMA synchronous=FULL")
    return Session(SQLITE, lite.execute, lite.close)


class Database:
    """A session on a thread of its own; ``run`` hands it work from the event loop."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="database")
        self._session: Session | None = None

    async def open(self) -> None:
        self._session = await self._submit(lambda: connect(self.target))

    async def run(self, work: Callable[[Session], T]) -> T:
        """Return ``work(session)``, run on the database's thread."""
        session = self._session
        if session is None:
            raise RuntimeError("the database is not open")
        return await self._submit(lambda: work(session))

    async def close(self) -> None:
        """Close the session once the work already handed over has finished."""
        session, self._session = self._session, None
        if session is not None:
            await self._submit(session.close)
        await asyncio.to_thread(self._executor.shutdown, wait=True)

    def _submit(self, call: Callable[[], T]) -> asyncio.Future[T]:
        return asyncio.get_running_loop().run_in_executor(self._executor, call)
