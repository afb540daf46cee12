"""The tournaments process's parts wired together: store, NATS, consumer, director, servicer."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence

import grpc

from photofinish.tournaments.v1 import tournaments_pb2, tournaments_pb2_grpc
from services.common import deletions, natsmetrics
from services.common.database import Database
from services.common.identity import PlayerId
from services.common.opening.request import NatsArbitration
from services.common.results import declare
from services.common.startup import keep_running, open_database
from services.tournaments.config import Config
from services.tournaments.consumer import consume
from services.tournaments.director import Director
from services.tournaments.hub import Hub
from services.tournaments.servicer import TournamentsServicer
from services.tournaments.store import Store
from wire.subjects import ACCOUNTS_STREAM, RESULTS_STREAM, TOURNAMENTS_CONSUMER

log = logging.getLogger("tournaments")

DELETIONS_IDLE_S = 1.0  # how long a fetch of deletions waits when none are pending


class TournamentsService:
    """What ``serve`` runs: ``lifespan`` opens the store, NATS and the loops around the server."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.store = Store(Database(config.database))
        self.hub = Hub()
        self.director: Director | None = None

    def register(self, server: grpc.aio.Server) -> Sequence[str]:
        assert self.director is not None, "lifespan runs before the server starts"
        servicer = TournamentsServicer(self.store, self.hub, self.director)
        tournaments_pb2_grpc.add_TournamentsServicer_to_server(servicer, server)
        return [tournaments_pb2.DESCRIPTOR.services_by_name["Tournaments"].full_name]

    async def forget(self, player_id: str) -> None:
        """Blank a deleted account's name (``deletions.Forget``); refresh the standings soon."""
        await self.store.forget(PlayerId(player_id), time.time())
        if self.director is not None:
            self.director.poke()  # watchers see the blank now, not at the next pairing round

    @contextlib.asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        """Open the database (migrated), NATS, the consumers and the director; close in reverse."""
        async with contextlib.AsyncExitStack() as stack:
            await open_database(stack, self.store, log)
            connection = await natsmetrics.connect(
                self.config.nats_url, "tournaments", max_reconnect_attempts=-1
            )
            stack.push_async_callback(connection.close)
            js = connection.jetstream()
            await declare(js, self.config.ack_wait_s, TOURNAMENTS_CONSUMER)
            await deletions.declare(js, TOURNAMENTS_CONSUMER, self.config.ack_wait_s)
            arbitration = NatsArbitration(connection, self.config.open_timeout_s, "tournaments")
            director = Director(
                self.store,
                self.hub,
                arbitration,
                self.config.pairing_interval_s,
                self.config.overtime_s,
            )
            self.director = director
            consumer = consume(js, self.store, lambda _: director.poke())
            lag = natsmetrics.sample_pending(js, RESULTS_STREAM, TOURNAMENTS_CONSUMER)
            forgetting = deletions.consume(js, TOURNAMENTS_CONSUMER, self.forget, DELETIONS_IDLE_S)
            forgetting_lag = natsmetrics.sample_pending(js, ACCOUNTS_STREAM, TOURNAMENTS_CONSUMER)
            for name, work in (
                ("results-consumer", consumer),
                ("deletions-consumer", forgetting),
                ("director", director.run()),
                ("consumer-lag", lag),
                ("deletions-lag", forgetting_lag),
            ):
                keep_running(stack, name, work)
            yield
