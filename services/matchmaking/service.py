"""The matchmaking process's parts wired together: NATS, ratings, state, gRPC service."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Sequence

import grpc

from photofinish.matchmaking.v1 import bots_pb2_grpc, matchmaking_pb2, matchmaking_pb2_grpc
from services.common import callers, natsmetrics
from services.common.live import live_bucket
from services.common.natsurl import servers_of
from services.common.startup import keep_running
from services.matchmaking import pools
from services.matchmaking.broker import ServicesBroker
from services.matchmaking.challenges import Challenges
from services.matchmaking.config import Config
from services.matchmaking.opener import Opener
from services.matchmaking.pairing import pair
from services.matchmaking.playing import Playing, follow
from services.matchmaking.pools import Pools
from services.matchmaking.queues import Queues
from services.matchmaking.ratings import RatingsLookup, never_barred, newcomer_rating
from services.matchmaking.rematch_offers import Rematches
from services.matchmaking.servicer import Barred, MatchmakingServicer

SERVICE_NAME = matchmaking_pb2.DESCRIPTOR.services_by_name["Matchmaking"].full_name

log = logging.getLogger(__name__)


class Service:
    """Connects to NATS and ratings for the process's life; registers the servicer.

    The queues are paired again every ``pairing_interval_s`` by a task of the lifespan;
    another keeps the players' live matches from the ``pf_live`` bucket, read to its end
    before the server starts, so the caps hold from the first call after a restart.
    """

    def __init__(self, config: Config) -> None:
        self._config = config
        self._playing = Playing()
        self._opener: Opener | None = None
        self._pools = Pools(config.request_timeout_s)
        self._queues: Queues | None = None
        self._barred: Barred = never_barred

    @contextlib.asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        """Hold NATS, the ratings channel and the pairing task; close them after the server."""
        config = self._config
        async with contextlib.AsyncExitStack() as stack:
            nc = await natsmetrics.connect(config.nats_url, "matchmaking")
            stack.push_async_callback(nc.drain)
            # The server alone: the URL carries this service's NATS password.
            servers = [f"{host}:{port}" for host, port in servers_of(config.nats_url)]
            log.info("connected to NATS", extra={"fields": {"servers": servers}})
            synced = asyncio.Event()
            live = await live_bucket(nc.jetstream())
            keep_running(stack, "live", follow(live, self._playing, synced))
            await synced.wait()
            lookup = await stack.enter_async_context(self._ratings())
            rating_of = lookup if lookup is not None else newcomer_rating
            self._barred = lookup.barred if lookup is not None else never_barred
            self._opener = Opener(ServicesBroker(nc, self._pools, config.request_timeout_s))
            self._queues = Queues(
                self._opener.online,
                pair=functools.partial(pair, window=config.window),
                rating_of=rating_of,
                rematch_cooldown_s=config.rematch_cooldown_s,
            )
            ticker = asyncio.create_task(
                self._queues.keep_pairing(config.pairing_interval_s), name="pairing"
            )
            ticker.add_done_callback(_log_if_failed)
            stack.push_async_callback(_cancel, ticker)
            yield

    def register(self, server: grpc.aio.Server) -> Sequence[str]:
        """Add the Matchmaking and BotPools services to ``server``; return their full names."""
        assert self._opener and self._queues, "register runs inside the lifespan"
        challenges = Challenges(self._opener.online)
        rematches = Rematches(self._opener.recent, self._opener.online)
        servicer = MatchmakingServicer(
            self._queues, challenges, self._opener, rematches, self._playing, self._barred
        )
        matchmaking_pb2_grpc.add_MatchmakingServicer_to_server(servicer, server)
        bots_pb2_grpc.add_BotPoolsServicer_to_server(self._pools, server)
        return [SERVICE_NAME, pools.SERVICE_NAME]

    @contextlib.asynccontextmanager
    async def _ratings(self) -> AsyncIterator[RatingsLookup | None]:
        """Yield the rating lookup: GetRating on PF_RATINGS_ADDR (None: 1500 for all)."""
        address = self._config.ratings_addr
        if not address:
            log.warning("no PF_RATINGS_ADDR: every ticket is queued at 1500")
            yield None
            return
        async with callers.channel(address, self._config.caller_token) as channel:
            log.info("ratings at", extra={"fields": {"address": address}})
            yield RatingsLookup(channel, self._config.ratings_timeout_s)


def _log_if_failed(task: asyncio.Task[None]) -> None:
    """Say so when periodic pairing stops: queues then pair only when they change."""
    if not task.cancelled() and task.exception() is not None:
        log.error("periodic pairing stopped", exc_info=task.exception())


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
