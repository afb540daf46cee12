"""The ratings process's parts wired together: database, results and deletions consumers,
gRPC servicer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence

import grpc

from photofinish.ratings.v1 import ratings_pb2, ratings_pb2_grpc
from services.common import deletions, natsmetrics, tasks
from services.common.database import Database, SqliteFile
from services.common.results import declare
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
            await self.store.database.open()
            stack.push_async_callback(self.store.database.close)
            applied = await self.store.migrate()
            log.info("database ready", extra={"fields": self._database_fields(applied)})
            connection = await natsmetrics.connect(
                self.config.nats_url, "ratings", max_reconnect_attempts=-1
            )
            stack.push_async_callback(connection.close)
            js = connection.jetstream()
            await declare(js, self.config.ack_wait_s, RATINGS_CONSUMER)
            await deletions.declare(js, RATINGS_CONSUMER, self.config.ack_wait_s)
            await declare(js, self.config.ack_wait_s, FAIRPLAY_CONSUMER)
            consumer = asyncio.create_task(
                consume(
                    js,
                    self.store,
                    Faults(self.config.faults),
                    self.config.fetch_batch,
                    self.config.idle_poll_s,
                ),
                name="results-consumer",
            )
            consumer.add_done_callback(tasks.stop_process_if_failed)
            stack.push_async_callback(tasks.stop, consumer)
            measuring = asyncio.create_task(
                measure(js, self.fairness, self.config.fetch_batch, self.config.idle_poll_s),
                name="fairplay-reader",
            )
            measuring.add_done_callback(tasks.stop_process_if_failed)
            stack.push_async_callback(tasks.stop, measuring)
            forgetting = asyncio.create_task(
                deletions.consume(js, RATINGS_CONSUMER, self.forget, self.config.idle_poll_s),
                name="deletions-consumer",
            )
            forgetting.add_done_callback(tasks.stop_process_if_failed)
            stack.push_async_callback(tasks.stop, forgetting)
            for stream, durable, name in (
                (RESULTS_STREAM, RATINGS_CONSUMER, "consumer-lag"),
                (RESULTS_STREAM, FAIRPLAY_CONSUMER, "fairplay-lag"),
                (ACCOUNTS_STREAM, RATINGS_CONSUMER, "deletions-lag"),
            ):
                lag = asyncio.create_task(
                    natsmetrics.sample_pending(js, stream, durable), name=name
                )
                stack.push_async_callback(tasks.stop, lag)
            yield

    def _database_fields(self, applied: tuple[int, ...]) -> dict[str, object]:
        target = self.config.database
        where = str(target.path) if isinstance(target, SqliteFile) else "postgresql"
        return {"database": where, "migrations_applied": list(applied)}
