"""The ratings process's parts wired together: database, results and deletions consumers,
gRPC servicer."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence

import grpc

from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common import deletions, natsmetrics
from services.common.database import Database
from services.common.results import declare
from services.common.startup import keep_running, open_database
from services.ratings.config import Config
from services.ratings.consumer import consume
from services.ratings.fairness import Fairness
from services.ratings.faults import Faults
from services.ratings.measuring import measure
from services.ratings.model import PlayerId
from services.ratings.servicer import RatingsServicer
from services.ratings.store import Store
from wire.subjects import ACCOUNTS_STREAM, FAIRPLAY_CONSUMER, RATINGS_CONSUMER, RESULTS_STREAM

log = logging.getLogger("ratings")


class RatingsService:
    """What ``serve`` runs: ``lifespan`` opens the store and the consumer around the server."""

    def __init__(self, config: Config) -> None:
        self.config = config
        database = Database(config.database)
        self.store = Store(database, rated_per_pair_per_day=config.rated_per_pair_per_day)
        self.fairness = Fairness(database, config.thresholds, config.reports_per_day)

    async def forget(self, player_id: str) -> None:
        """Blank a deleted account's name on the ladders and in history (``deletions.Forget``)."""
        await self.store.forget(PlayerId(player_id), time.time())

    def register(self, server: grpc.aio.Server) -> Sequence[str]:
        ratings_pb2_grpc.add_RatingsServicer_to_server(
            RatingsServicer(self.store, self.fairness), server
        )
        return [ratings_pb2.DESCRIPTOR.services_by_name["Ratings"].full_name]

    @contextlib.asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        """Open the database (migrated), NATS and the consumers; close them in reverse."""
        async with contextlib.AsyncExitStack() as stack:
            await open_database(stack, self.store, log)
            connection = await natsmetrics.connect(
                self.config.nats_url, "ratings", max_reconnect_attempts=-1
            )
            stack.push_async_callback(connection.close)
            js = connection.jetstream()
            await declare(js, self.config.ack_wait_s, RATINGS_CONSUMER)
            await deletions.declare(js, RATINGS_CONSUMER, self.config.ack_wait_s)
            await declare(js, self.config.ack_wait_s, FAIRPLAY_CONSUMER)
            batch, idle_s = self.config.fetch_batch, self.config.idle_poll_s
            faults = Faults(self.config.faults)
            for name, work in (
                ("results-consumer", consume(js, self.store, faults, batch, idle_s)),
                ("fairplay-reader", measure(js, self.fairness, batch, idle_s)),
                (
                    "deletions-consumer",
                    deletions.consume(js, RATINGS_CONSUMER, self.forget, idle_s),
                ),
                ("consumer-lag", natsmetrics.sample_pending(js, RESULTS_STREAM, RATINGS_CONSUMER)),
                ("fairplay-lag", natsmetrics.sample_pending(js, RESULTS_STREAM, FAIRPLAY_CONSUMER)),
                (
                    "deletions-lag",
                    natsmetrics.sample_pending(js, ACCOUNTS_STREAM, RATINGS_CONSUMER),
                ),
            ):
                keep_running(stack, name, work)
            yield
