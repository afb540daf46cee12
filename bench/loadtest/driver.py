"""A load worker process: its share of the players, each in the tournament of its game.

Each player signs in, joins, follows WatchTournament and plays every game it is paired
into with the engine's HARD bot (``SeatPlayer``) at the configured pace. When the
tournament reaches its end (ENDING), seat 0 of every game still in play resigns, so the
event closes in bounded time; those games finish and count like any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing.connection
import random
from dataclasses import dataclass

import aiohttp

from bench.loadtest.recorder import Closing, Recorded, Recorder
from bench.loadtest.settings import (
    END_TIMEOUT_S,
    REPORT_EVERY_S,
    SETUP_CONCURRENCY,
    SETUP_TIMEOUT_S,
)
from bench.stack.settings import GAME_BY_NAME
from clients.arena import ArenaClient
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect, WatchLost
from clients.grpcweb import CallError
from clients.play import SocketArena
from games.bot import Level
from games.registry import BY_NUMBER as GAMES
from photofinish.game.v1 import bid_pb2, game_pb2, spit_pb2
from photofinish.tournaments.v1 import tournaments_pb2 as tpb

WATCH_RETRIES = 30
CLOSING_SPREAD_S = 5.0
RESIGN = {
    "spit": game_pb2.Command(spit=spit_pb2.SpitCommand(resign=spit_pb2.SpitResign())),
    "bid": game_pb2.Command(bid=bid_pb2.BidCommand(resign=bid_pb2.BidResign())),
}


@dataclass(frozen=True, slots=True)
class WorkerSpec:
    index: int
    gateway_url: str
    players: tuple[tuple[str, str], ...]  # (display name, game)
    scales: tuple[tuple[str, float], ...]
    seed: int


def worker_main(conn: multiprocessing.connection.Connection, spec: WorkerSpec) -> None:
    """Entry point: sign in, say ready, wait for the tournaments, play, report, exit."""
    try:
        asyncio.run(_worker(conn, spec))
    except Exception as error:
        conn.send(("error", f"{type(error).__name__}: {error}"))
        raise
    finally:
        conn.close()


async def _worker(conn: multiprocessing.connection.Connection, spec: WorkerSpec) -> None:
    recorder = Recorder()
    connector = aiohttp.TCPConnector(limit=0)  # every Watch holds a connection open
    async with aiohttp.ClientSession(connector=connector) as http:
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def sign_in(name: str) -> ArenaClient:
            """An account of its own: the tournaments are rated, which needs one."""
            async with gate:
                client = ArenaClient(http, spec.gateway_url)
                await client.sign_up_new(name, "load test")
                return client

        async with asyncio.timeout(SETUP_TIMEOUT_S):
            clients = await asyncio.gather(*(sign_in(name) for name, _ in spec.players))
        games = [game for _, game in spec.players]
        conn.send(
            ("ready", [(c.player_id, c.name, g) for c, g in zip(clients, games, strict=True)])
        )
        tournaments: dict[str, str] = await asyncio.to_thread(conn.recv)
        reporter = asyncio.create_task(_report(conn, recorder))
        scales = dict(spec.scales)
        entrants = [
            Entrant(client, game, tournaments[game], scales[game], recorder, spec.seed)
            for client, game in zip(clients, games, strict=True)
        ]

        async def join(entrant: Entrant) -> None:
            async with gate:
                await entrant.client.join_tournament(entrant.tournament_id)

        await asyncio.gather(*(join(e) for e in entrants))
        await asyncio.gather(*(e.play() for e in entrants))
        recorder.stopping = True
        reporter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reporter
        conn.send(("batch", recorder.drain()))
        conn.send(("done", None))


async def _report(conn: multiprocessing.connection.Connection, recorder: Recorder) -> None:
    while True:
        await asyncio.sleep(REPORT_EVERY_S)
        conn.send(("batch", recorder.drain()))


class Entrant:
    """One player in one tournament: follows it and plays every pairing to its end."""

    def __init__(
        self,
        client: ArenaClient,
        game: str,
        tournament_id: str,
        scale: float,
        recorder: Recorder,
        seed: int,
    ) -> None:
        self.client, self.game, self.tournament_id = client, game, tournament_id
        self._arena = SocketArena(client)  # each game's seat on its play socket
        self._pace, self._recorder, self._seed = Pace(think_scale=scale), recorder, seed
        self._games: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self._closing = Closing()
        self._closer: asyncio.Task[None] | None = None

    async def play(self) -> None:
        """Return once the tournament's final standings came and every game ended."""
        for attempt in range(WATCH_RETRIES):
            try:
                if await self._follow():
                    break
            except (CallError, aiohttp.ClientError, TimeoutError) as error:
                self._recorder.errors[f"tournament watch: {_kind(error)}"] += 1
            await asyncio.sleep(min(5.0, 0.2 * 2**attempt))
        else:
            self._recorder.errors["tournament watch: gave up"] += 1
        pending = [task for _, task in self._games.values() if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=END_TIMEOUT_S)
        for task in pending:
            if not task.done():
                self._recorder.errors["a game still in play after the tournament ended"] += 1
                task.cancel()

    async def _follow(self) -> bool:
        """Follow the tournament; return True on the final standings (False: stream ended)."""
        async with contextlib.aclosing(self.client.watch_tournament(self.tournament_id)) as stream:
            async for update in stream:
                if update.HasField("match"):
                    self._start(update.match.match_id, update.match.seats[0])
                    continue
                status = update.standings.tournament.status
                if status >= tpb.STATUS_ENDING and not self._closing.started:
                    self._closing.started = True
                    self._closer = asyncio.create_task(self._resign_games_in_play())
                if status == tpb.STATUS_FINISHED:
                    return True
        return False

    def _start(self, match_id: str, seat: int) -> None:
        if match_id in self._games:
            return  # a resumed stream names the game in progress again
        self._recorder.assignments.append((self.client.player_id, match_id, seat, self.game))
        player = SeatPlayer(
            Recorded(self._arena, self._recorder, self._closing),
            match_id,
            seat,
            GAMES[GAME_BY_NAME[self.game]],
            Level.HARD,
            random.Random(f"{self._seed}/{match_id}/{seat}"),
            self._pace,
            Reconnect(),
        )
        task = asyncio.get_running_loop().create_task(self._seat(player))
        self._games[match_id] = (seat, task)

    async def _seat(self, player: SeatPlayer) -> None:
        recorder = self._recorder
        recorder.playing += 1
        try:
            final = await player.play()
            recorder.finals.append((player.match_id, player.seat, final.status, final.void_reason))
        except WatchLost as error:
            recorder.errors[f"match watch lost: {error}"[:80]] += 1
        finally:
            recorder.playing -= 1

    async def _resign_games_in_play(self) -> None:
        # Spread over a few seconds, as people notice the end one by one, rather than
        # every game of the event ending in the same instant.
        spread = random.Random(f"{self._seed}/{self.client.player_id}/closing")
        await asyncio.sleep(spread.uniform(0, CLOSING_SPREAD_S))
        for match_id, (seat, task) in self._games.items():
            if seat == 0 and not task.done():
                with contextlib.suppress(CallError):  # match_over: it ended meanwhile
                    await Recorded(self._arena, self._recorder, self._closing).submit(
                        match_id, seat, RESIGN[self.game]
                    )


def _kind(error: BaseException) -> str:
    if isinstance(error, CallError):
        return error.reason or f"grpc status {error.code}"
    return type(error).__name__
