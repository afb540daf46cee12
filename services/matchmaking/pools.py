"""The bot pools connected to matchmaking, each on its own Serve stream.

A pool (clients/bots) is a client: it holds one ``BotPools.Serve`` stream open for its
life, and matchmaking asks the pools in turn for a computer player, then tells the pool
that named the bot when the bot's match opened (or will not). Asking on the stream the
pool opened, rather than on a subject or a port of the pool's, keeps the pool away from
NATS and the services' network, and the pool that named a bot is the one that plays it.

With no pool connected, or when the pool asked does not answer in time or names nobody,
the caller is told at once: UNAVAILABLE ``no_bot_pool``, nothing retried behind its back.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import AsyncIterable, AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import grpc

from games.bot import Level
from games.registry import Game
from photofinish.matchmaking.v1 import bots_pb2, bots_pb2_grpc
from services.common.identity import Player
from services.common.opening.codec import decode_player, match_created
from services.common.opening.matches import MatchSpec
from services.matchmaking import codec
from services.matchmaking.errors import Reason, Unavailable
from services.matchmaking.metrics import BOT_POOLS

log = logging.getLogger(__name__)

SERVICE_NAME = bots_pb2.DESCRIPTOR.services_by_name["BotPools"].full_name
# A Serve call on any other's token is refused: the pools' door is for the pools alone.
METHODS = f"/{SERVICE_NAME}/"
CALLER = "bots"


@dataclass(slots=True)
class _Pool:
    """One connected pool: the orders waiting to go down, the answers awaited."""

    number: int
    # None: the pool stopped sending, so the call ends.
    orders: asyncio.Queue[bots_pb2.PoolOrder | None] = field(default_factory=asyncio.Queue)
    answers: dict[int, asyncio.Future[bots_pb2.PoolAnswer]] = field(default_factory=dict)
    named: set[str] = field(default_factory=set)  # its bots whose match is not settled


class Pools(bots_pb2_grpc.BotPoolsServicer):
    """Every connected pool; asks one for a bot, and tells it of that bot's match."""

    def __init__(self, timeout_s: float) -> None:
        self._timeout_s = timeout_s
        self._pools: dict[int, _Pool] = {}
        self._numbers = itertools.count(1)
        self._asks = itertools.count(1)
        self._turn = itertools.count()
        self._named: dict[str, _Pool] = {}  # bot player id -> the pool that named it

    @property
    def connected(self) -> int:
        """Return how many pools hold a stream open."""
        return len(self._pools)

    async def Serve(
        self,
        request_iterator: AsyncIterable[bots_pb2.PoolAnswer],
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> AsyncIterator[bots_pb2.PoolOrder]:
        pool = _Pool(next(self._numbers))
        self._pools[pool.number] = pool
        BOT_POOLS.set(len(self._pools))
        log.info("bot pool connected", extra={"fields": {"pool": pool.number}})
        reader = asyncio.create_task(self._read(pool, request_iterator), name="pool-answers")
        # The pool counts as connected once it has our headers: it is asked from now on.
        await context.send_initial_metadata(())
        try:
            while (order := await pool.orders.get()) is not None:
                yield order
        finally:
            reader.cancel()
            self._forget(pool)

    async def bot(self, game: Game, level: Level) -> Player:
        """Return a computer player for ``game`` at ``level``, named by one of the pools.

        Raises:
            Unavailable: when no pool is connected, or the one asked named nobody in time.
        """
        why = f"no bot pool offered a {level.value} {game} player"
        if not self._pools:
            raise Unavailable(Reason.NO_BOT_POOL, f"{why}: no pool is connected")
        pools = list(self._pools.values())
        pool = pools[next(self._turn) % len(pools)]
        ask = next(self._asks)
        answer = asyncio.get_running_loop().create_future()
        pool.answers[ask] = answer
        pool.orders.put_nowait(bots_pb2.PoolOrder(ask=ask, bot=codec.bot_request(game, level)))
        try:
            async with asyncio.timeout(self._timeout_s):
                reply = (await answer).reply
        except TimeoutError:
            raise Unavailable(Reason.NO_BOT_POOL, f"{why} within {self._timeout_s:g} s") from None
        except ConnectionError:
            raise Unavailable(Reason.NO_BOT_POOL, f"{why}: the pool went away") from None
        finally:
            pool.answers.pop(ask, None)
        if not reply.player.player_id:
            raise Unavailable(Reason.NO_BOT_POOL, f"{why}: the pool can serve no more")
        self._named[reply.player.player_id] = pool
        pool.named.add(reply.player.player_id)
        return decode_player(reply.player)

    def seat(self, bot: Player, spec: MatchSpec | None) -> None:
        """Tell the pool that named ``bot`` that its match ``spec`` opened (None: never will)."""
        pool = self._named.pop(bot.id, None)
        if pool is None:
            return  # its pool went away: it forgot its bots then
        pool.named.discard(bot.id)
        if spec is None:
            pool.orders.put_nowait(bots_pb2.PoolOrder(dropped=bot.id))
        else:
            pool.orders.put_nowait(bots_pb2.PoolOrder(opened=match_created(spec)))

    async def _read(self, pool: _Pool, answers: AsyncIterable[bots_pb2.PoolAnswer]) -> None:
        try:
            async for answer in answers:
                waiting = pool.answers.get(answer.ask)
                if waiting is not None and not waiting.done():
                    waiting.set_result(answer)
        except grpc.aio.AioRpcError as error:
            log.info("bot pool stream broken", extra={"fields": {"why": repr(error)}})
        finally:
            self._forget(pool)
            pool.orders.put_nowait(None)

    def _forget(self, pool: _Pool) -> None:
        """Forget a pool whose stream ended: its pending asks fail at once."""
        if self._pools.pop(pool.number, None) is None:
            return
        BOT_POOLS.set(len(self._pools))
        for waiting in pool.answers.values():
            if not waiting.done():
                waiting.set_exception(ConnectionError("the pool's stream ended"))
        for player_id in pool.named:
            self._named.pop(player_id, None)
        log.info("bot pool gone", extra={"fields": {"pool": pool.number}})
