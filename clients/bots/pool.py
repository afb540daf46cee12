"""The pool: names computer players for matchmaking and plays their seats once seated.

The pool is a client, like every player: it has no NATS and no port of its own. It holds
one ``BotPools.Serve`` stream open to matchmaking (known there by its caller token) and
takes its orders on it: a ``bot`` order is answered with a fresh guest signed in through
the gateway, whom the pool remembers as waiting; an ``opened`` order says that a waiting
bot's match opened, and the pool plays its seat through the gateway; ``dropped`` says it
never will. Matchmaking asks the connected pools in turn, so pools scale out without
coordination. A lost stream is opened again with backoff; the bots still waiting are
forgotten then, as matchmaking forgets them.

An order the pool cannot serve — an unknown game or level, the pool full, the gateway
refusing the sign-in — is answered at once with a BotReply naming no player: matchmaking
turns that into UNAVAILABLE, so the person is told straight away instead of after the
request timeout. Each seat is one task; a seat that fails is logged and ends, and never
takes the pool down.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp
import grpc

from clients.arena import ArenaClient
from clients.bots.config import Config
from clients.bots.planning import Pace
from clients.bots.seat import SeatPlayer
from clients.bots.watching import Reconnect, WatchLost
from clients.grpcweb import CallError
from clients.play import SocketArena
from games.bot import Level
from games.codec import level_from_proto
from games.registry import BY_NUMBER as GAMES
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.events.v1 import events_pb2
from photofinish.matchmaking.v1 import bots_pb2, bots_pb2_grpc
from runtime.stopping import wait_for_stop_signal
from wire.metadata import CALLER_TOKEN

log = logging.getLogger("bots")

SIGN_IN_TIMEOUT_S = 5.0
SWEEP_EVERY_S = 30.0


class Answers(Protocol):
    """The pool's half of the Serve stream: where its answers go."""

    async def write(self, answer: bots_pb2.PoolAnswer) -> None: ...


class OneWriter:
    """Writes the answers of many tasks to one stream, one at a time: gRPC allows one
    write in flight, and a second at once broke the stream ("Internal error from Core")."""

    def __init__(self, stream: Answers) -> None:
        self._stream = stream
        self._lock = asyncio.Lock()

    async def write(self, answer: bots_pb2.PoolAnswer) -> None:
        async with self._lock:
            await self._stream.write(answer)


@dataclass(frozen=True, slots=True)
class Waiting:
    """A bot named to matchmaking whose match has not opened yet."""

    client: ArenaClient
    game: int
    level: Level
    since_s: float


class Pool:
    """Every bot of this process: waiting for a match, or playing a seat."""

    def __init__(self, config: Config, session: aiohttp.ClientSession) -> None:
        self._config = config
        self._session = session
        self._pace = Pace(think_scale=config.think_scale)
        self._reconnect = Reconnect(give_up_s=config.give_up_s)
        self._waiting: dict[str, Waiting] = {}
        self._playing: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._chores: set[asyncio.Task[None]] = set()
        self.connected = asyncio.Event()  # set while matchmaking holds our stream

    @property
    def seats(self) -> int:
        """Return how many bots are waiting or playing."""
        return len(self._waiting) + len(self._playing)

    def start(self) -> None:
        """Take matchmaking's orders, on a stream opened again whenever it is lost."""
        self._spawn(self._take_orders(), "orders")
        self._spawn(self._sweep(), "sweep")

    async def close(self) -> None:
        """Stop taking orders, stop every seat and chore, and wait for them to end."""
        tasks = [*self._playing.values(), *self._chores]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _take_orders(self) -> None:
        metadata = ((CALLER_TOKEN, self._config.caller_token),)
        rng, attempt = random.Random(), 0
        async with grpc.aio.insecure_channel(self._config.matchmaking_addr) as channel:
            serve = bots_pb2_grpc.BotPoolsStub(channel).Serve
            while True:
                call = serve(metadata=metadata, wait_for_ready=True)
                why = "matchmaking ended the stream"
                try:
                    await call.initial_metadata()  # matchmaking sends it once it counts us in
                    self.connected.set()
                    log.info("taking matchmaking's orders", extra={"fields": {}})
                    answers = OneWriter(call)
                    async for order in call:
                        attempt = 0
                        self._obey(order, answers)
                except grpc.aio.AioRpcError as error:
                    why = f"{error.code().name}: {error.details()}"
                finally:
                    self.connected.clear()
                    call.cancel()
                self._waiting.clear()  # matchmaking forgot them with the stream
                delay = self._reconnect.delay_s(attempt, rng)
                attempt += 1
                fields = {"why": why, "retry_s": round(delay, 3)}
                log.warning("orders lost; reconnecting", extra={"fields": fields})
                await asyncio.sleep(delay)

    def _obey(self, order: bots_pb2.PoolOrder, call: Answers) -> None:
        kind = order.WhichOneof("kind")
        if kind == "bot":
            # Signing in is an HTTP round trip: serve each order in its own task so one
            # slow sign-in does not hold up the others.
            self._spawn(self._answer(order.ask, order.bot, call), "order")
        elif kind == "opened":
            self._on_opened(order.opened)
        elif kind == "dropped" and self._waiting.pop(order.dropped, None) is not None:
            log.info("bot never seated", extra={"fields": {"player": order.dropped}})

    async def _answer(self, ask: int, request: events_pb2.BotRequest, call: Answers) -> None:
        player = await self._sign_in(request)
        reply = events_pb2.BotReply(player=player) if player is not None else events_pb2.BotReply()
        await call.write(bots_pb2.PoolAnswer(ask=ask, reply=reply))

    async def _sign_in(self, request: events_pb2.BotRequest) -> events_pb2.Player | None:
        """Return a fresh bot signed in and waiting, or None (logged) when it cannot be."""
        level = level_from_proto(request.level)
        fields: dict[str, object] = {"game": request.game, "bot_level": request.level}
        if request.game not in GAMES or level is None:
            log.warning("bot request for no known game or level", extra={"fields": fields})
            return None
        if self.seats >= self._config.max_seats:
            log.warning("bot pool full", extra={"fields": {**fields, "seats": self.seats}})
            return None
        client = ArenaClient(self._session, self._config.gateway_url)
        try:
            async with asyncio.timeout(SIGN_IN_TIMEOUT_S):
                await client.sign_in(bot_name(level))
        except (CallError, aiohttp.ClientError, TimeoutError) as error:
            log.warning("bot sign-in failed", extra={"fields": {**fields, "error": repr(error)}})
            return None
        self._waiting[client.player_id] = Waiting(client, request.game, level, time.monotonic())
        log.info("bot named", extra={"fields": {**fields, "player": client.player_id}})
        return events_pb2.Player(player_id=client.player_id, name=client.name, bot=True)

    def _on_opened(self, created: events_pb2.MatchCreated) -> None:
        for seat, player in enumerate(created.players):
            waiting = self._waiting.pop(player.player_id, None)
            if waiting is not None:
                self._seat(created, seat, waiting)

    def _seat(self, created: events_pb2.MatchCreated, seat: int, waiting: Waiting) -> None:
        fields = {"match": created.match_id, "seat": seat, "player": waiting.client.player_id}
        game = GAMES.get(created.game)
        if game is None:
            log.warning("bot seated in a game it cannot play", extra={"fields": fields})
            return
        if created.game != waiting.game:
            # Matchmaking's mistake, but the person at the table still wants a game.
            log.warning("bot seated in another game than asked", extra={"fields": fields})
        player = SeatPlayer(
            SocketArena(waiting.client),  # the seat on its play socket
            created.match_id,
            seat,
            game,
            waiting.level,
            self._rng(created.match_id, seat),
            self._pace,
            self._reconnect,
        )
        key = (created.match_id, seat)
        task = asyncio.create_task(self._play(player, fields), name=f"seat-{key}")
        self._playing[key] = task
        task.add_done_callback(lambda done: self._forget(key, done))
        log.info("bot seated", extra={"fields": fields})

    async def _play(self, player: SeatPlayer, fields: dict[str, object]) -> None:
        try:
            final = await player.play()
        except WatchLost as error:
            log.warning("seat given up", extra={"fields": {**fields, "why": str(error)}})
            return
        status = arbitration_pb2.Status.Name(final.status)
        winner = final.outcome.winner if final.HasField("outcome") else -1
        tally = player.tally
        log.info(
            "bot done",
            extra={
                "fields": {
                    **fields,
                    "status": status,
                    "winner": winner,
                    "accepted": tally.accepted,
                    "refused": tally.refused,
                }
            },
        )

    def _forget(self, key: tuple[str, int], task: asyncio.Task[None]) -> None:
        """Forget a finished seat (and its bot player)."""
        self._playing.pop(key, None)
        _log_failure(task, {"match": key[0], "seat": key[1]})

    def _rng(self, match_id: str, seat: int) -> random.Random:
        """Return the seat's generator: seeded by (seed, match, seat) when a seed is set."""
        if self._config.seed is None:
            return random.Random()
        return random.Random(f"{self._config.seed}/{match_id}/{seat}")

    async def _sweep(self) -> None:
        """Forget, every little while, bots whose match never opened."""
        while True:
            await asyncio.sleep(min(SWEEP_EVERY_S, self._config.waiting_ttl_s))
            cutoff = time.monotonic() - self._config.waiting_ttl_s
            for player_id, waiting in list(self._waiting.items()):
                if waiting.since_s < cutoff:
                    del self._waiting[player_id]
                    log.info("bot never seated", extra={"fields": {"player": player_id}})

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)
        task.add_done_callback(lambda done: _log_failure(done, {"task": name}))


def _log_failure(task: asyncio.Task[None], fields: dict[str, object]) -> None:
    """Log the error that ended ``task``, if one did: it ends that task, not the pool."""
    if task.cancelled() or task.exception() is None:
        return
    error = task.exception()
    assert error is not None
    log.error(
        "task failed",
        exc_info=(type(error), error, error.__traceback__),
        extra={"fields": {**fields, "task_name": task.get_name()}},
    )


async def serve(config: Config) -> None:
    """Run the pool until SIGINT/SIGTERM: announce ``READY bots`` once matchmaking holds
    the pool's stream, then close."""
    connector = aiohttp.TCPConnector(limit=2 * config.max_seats + 16)
    # No total timeout: a Watch stream lasts the whole match (each call sets its own).
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=10.0)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        pool = Pool(config, session)
        pool.start()
        try:
            await pool.connected.wait()
            print("READY bots", flush=True)
            await wait_for_stop_signal()
        finally:
            await pool.close()
    print("STOPPED bots", file=sys.stderr, flush=True)


def bot_name(level: Level) -> str:
    """Return the display name of a computer player: ``Computer (hard)``."""
    return f"Computer ({level.value})"
