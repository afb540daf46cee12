"""Crash safety with real processes: a ratings service killed mid-result counts it once.

The service runs as a child (``python -m services.ratings``) against a real nats-server
and database. It is killed at the two moments exactly-once depends on (after a message
arrives but before the commit; after the commit but before the ack) through its
fault-injection hook, and by a plain SIGKILL while results stream in. After a restart,
GetLadder and GetHistory over gRPC must show every result counted exactly once.
"""

from __future__ import annotations

import asyncio
import signal
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import grpc
import nats
import pytest
from nats.js import JetStreamContext
from prometheus_client.parser import text_string_to_metric_families

from photofinish.game.v1 import game_pb2
from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common.database import Database, Target
from services.common.jetstream_config import results_stream_config
from services.ratings.faults import EXIT_CODE
from services.ratings.model import Finished, MatchResult
from services.stack.natsd import NatsServer
from services.stack.processes import Child, start_child
from tests.ratings.results import publish, void, win
from wire.subjects import RATINGS_CONSUMER, RESULTS_STREAM

WAIT_S = 20.0

RESULTS: tuple[MatchResult, ...] = (
    win("m1", "ann", "bob"),
    win("m2", "bob", "cat", winner_seat=1),
    win("m3", "cat", "ann"),
    void("m4", "ann", "bob"),
    win("m5", "ann", "cat"),
    win("m6", "bob", "ann", rated=False),
)


@dataclass(frozen=True, slots=True)
class Expected:
    """What the ladder and the histories show once ``results`` are each counted once."""

    games: dict[str, int]
    wins: dict[str, int]
    lines: dict[str, int]


def expected(results: Sequence[MatchResult]) -> Expected:
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    for result in results:
        for seat, player in enumerate(result.players):
            lines[player.player_id] += 1
            if isinstance(result, Finished) and result.changes_ratings:
                games[player.player_id] += 1
                wins[player.player_id] += seat == result.winner
    return Expected(dict(games), dict(wins), dict(lines))


@dataclass(frozen=True, slots=True)
class Rig:
    js: JetStreamContext
    env: dict[str, str]
    log_dir: Path

    async def start(self, **extra: str) -> Child:
        return await start_child("ratings", "services.ratings", {**self.env, **extra}, self.log_dir)


@pytest.fixture
async def rig(nats_server: NatsServer, database_url: str, tmp_path: Path) -> AsyncIterator[Rig]:
    connection = await nats.connect(nats_server.url)
    js = connection.jetstream()
    await js.add_stream(results_stream_config())  # as the publishers declare it
    env = {
        "NATS_URL": nats_server.url,
        "DATABASE_URL": database_url,
        "PF_DATA_DIR": str(tmp_path),  # SQLite: the file the ``target`` fixture names
        "PF_RATINGS_ACK_WAIT_S": "1",
        "PF_RATINGS_IDLE_POLL_S": "0.2",
        "PF_RATED_PER_PAIR_PER_DAY": "100",  # the same pairs play again and again here
    }
    yield Rig(js, env, tmp_path / "logs")
    await connection.close()


async def drained(js: JetStreamContext) -> None:
    """Return once every result was delivered and acked, redeliveries included."""
    async with asyncio.timeout(WAIT_S):
        while True:
            info = await js.consumer_info(RESULTS_STREAM, RATINGS_CONSUMER)
            if info.num_pending == 0 and info.num_ack_pending == 0:
                return
            await asyncio.sleep(0.05)


async def ladder(child: Child) -> list[ratings_pb2.LadderEntry]:
    async with grpc.aio.insecure_channel(child.address()) as channel:
        stub = ratings_pb2_grpc.RatingsStub(channel)
        reply = await stub.GetLadder(ratings_pb2.GetLadderRequest(game=game_pb2.GAME_SPIT))
    return list(reply.entries)


async def history_lines(child: Child, player_id: str) -> int:
    async with grpc.aio.insecure_channel(child.address()) as channel:
        stub = ratings_pb2_grpc.RatingsStub(channel)
        request = ratings_pb2.GetHistoryRequest(
            player_id=player_id, game=game_pb2.GAME_SPIT, limit=500
        )
        return len((await stub.GetHistory(request)).entries)


async def assert_counted_once(child: Child, want: Expected) -> None:
    entries = await ladder(child)
    assert {e.player_id: e.games for e in entries} == want.games
    assert {e.player_id: e.wins for e in entries} == want.wins
    assert {p: await history_lines(child, p) for p in want.lines} == want.lines


async def metric(child: Child, name: str) -> float:
    url = f"http://127.0.0.1:{child.ports['metrics']}/metrics"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        text = await response.text()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name
    )


async def crashed(child: Child) -> int:
    async with asyncio.timeout(WAIT_S):
        code = await child.process.wait()
    await child.stop()
    return code


async def test_killed_after_receiving_before_storing_loses_nothing(rig: Rig) -> None:
    child = await rig.start(PF_RATINGS_CRASH_AT="after_fetch", PF_RATINGS_CRASH_ON_MESSAGE="2")
    for result in RESULTS:
        await publish(rig.js, result)
    assert await crashed(child) == EXIT_CODE
    child = await rig.start()
    try:
        await drained(rig.js)
        await assert_counted_once(child, expected(RESULTS))
    finally:
        assert await child.stop() == 0  # SIGTERM: a clean stop


async def test_killed_after_commit_before_ack_counts_nothing_twice(rig: Rig) -> None:
    child = await rig.start(PF_RATINGS_CRASH_AT="after_commit", PF_RATINGS_CRASH_ON_MESSAGE="2")
    for result in RESULTS:
        await publish(rig.js, result)
    assert await crashed(child) == EXIT_CODE
    child = await rig.start()
    try:
        await drained(rig.js)
        await assert_counted_once(child, expected(RESULTS))
        # The second result came back (never acked) and was recognised as counted.
        assert await metric(child, "pf_ratings_duplicates_total") == 1.0
    finally:
        await child.stop()


async def test_sigkill_while_results_stream_in_counts_each_once_after_restart(
    rig: Rig,
) -> None:
    players = ["ann", "bob", "cat", "dee", "eve"]
    # Every pairing of five players, both ways round, three times: 60 rated results.
    pairings = [(i, (i + o) % 5) for _ in range(3) for o in range(1, 5) for i in range(5)]
    results = [win(f"k{n}", players[a], players[b]) for n, (a, b) in enumerate(pairings)]
    child = await rig.start()
    for result in results:
        await publish(rig.js, result)
    async with asyncio.timeout(WAIT_S):
        while not await ladder(child):
            await asyncio.sleep(0.005)
    assert await child.stop(signal.SIGKILL) == -signal.SIGKILL
    child = await rig.start()
    try:
        await drained(rig.js)
        await assert_counted_once(child, expected(results))
    finally:
        await child.stop()


async def test_a_database_failure_stops_the_process_and_stores_nothing_of_the_result(
    rig: Rig, target: Target
) -> None:
    child = await rig.start()
    database = Database(target)
    await database.open()
    try:
        await database.run(lambda s: s.execute("DROP TABLE history"))
        await publish(rig.js, win("m1", "ann", "bob"))
        assert await crashed(child) not in (0, EXIT_CODE)
        # The transaction rolled back whole: no result row without its history.
        assert await database.run(lambda s: s.rows("SELECT match_id FROM results")) == []
        info = await rig.js.consumer_info(RESULTS_STREAM, RATINGS_CONSUMER)
        assert info.num_ack_pending == 1  # not acked: redelivered once the store is fixed
    finally:
        await database.close()
