"""Ratings speed: rated results applied to the store per second, SQLite and PostgreSQL.

Run with ``make bench`` (or ``python -m bench.ratings --results 2000``). Each result goes
through ``Store.record`` exactly as the consumer calls it: one transaction that claims the
match id, locks and updates both ladder rows and writes both history lines, committed
durably (SQLite: WAL with ``synchronous=FULL``). Results are recorded one after another,
as the single durable consumer does. SQLite uses a file in a temporary folder;
PostgreSQL (``PF_BENCH_POSTGRES_URL``, default the test server) a schema of its own,
dropped afterwards, so the benchmark never touches the tests' or the service's tables.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import psycopg

from games.registry import BID, SPIT
from services.common.database import Database, Postgres, SqliteFile, Target
from services.ratings.model import Finished, MatchId, Mode, Player, PlayerId
from services.ratings.store import Store

POSTGRES_URL = os.environ.get("PF_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
START_UNIX_S = 1_800_000_000.0


def results(count: int, players: int, seed: int) -> list[Finished]:
    """Return ``count`` rated online results between random pairs of ``players`` people."""
    rng = random.Random(seed)
    people = [Player(PlayerId(f"p{i}"), f"Player {i}") for i in range(players)]
    made = []
    for number in range(count):
        north, south = rng.sample(people, 2)
        game = SPIT if number % 2 else BID
        made.append(
            Finished(
                MatchId(f"m{number}"), game, (north, south), rng.randint(0, 1), True, Mode.ONLINE
            )
        )
    return made


async def rate(target: Target, batch: list[Finished]) -> float:
    """Return the results per second ``batch`` was recorded at on a fresh store."""
    database = Database(target)
    await database.open()
    try:
        store = Store(database)
        await store.migrate()
        started = time.perf_counter()
        for index, result in enumerate(batch):
            await store.record(result, START_UNIX_S + 60 * index)
        return len(batch) / (time.perf_counter() - started)
    finally:
        await database.close()


@contextlib.asynccontextmanager
async def postgres_schema() -> AsyncIterator[Postgres | None]:
    """Yield a PostgreSQL target in a schema of its own (None when unreachable)."""
    try:
        admin = await psycopg.AsyncConnection.connect(
            POSTGRES_URL, autocommit=True, connect_timeout=3
        )
    except psycopg.OperationalError as error:
        print(f"PostgreSQL at {POSTGRES_URL} unreachable, skipped: {error}".strip())
        yield None
        return
    schema = f"ratings_bench_{uuid.uuid4().hex[:12]}"
    async with admin:
        await admin.execute(f"CREATE SCHEMA {schema}")
        try:
            separator = "&" if "?" in POSTGRES_URL else "?"
            yield Postgres(f"{POSTGRES_URL}{separator}options={quote(f'-csearch_path={schema}')}")
        finally:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")


async def run(count: int, players: int) -> None:
    batch = results(count, players, seed=11)
    with tempfile.TemporaryDirectory() as folder:
        per_s = await rate(SqliteFile(Path(folder) / "ratings.sqlite3"), batch)
    print(f"ratings, SQLite    : {count} rated results, {per_s:7.0f} results/s")
    async with postgres_schema() as target:
        if target is not None:
            per_s = await rate(target, batch)
            print(f"ratings, PostgreSQL: {count} rated results, {per_s:7.0f} results/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=int, default=2000)
    parser.add_argument("--players", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(run(args.results, args.players))


if __name__ == "__main__":
    main()
