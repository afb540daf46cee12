"""The matchmaking process's parts wired together: NATS connection, state, gRPC service."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Sequence

import grpc
import nats

from photofinish.matchmaking.v1 import matchmaking_pb2, matchmaking_pb2_grpc
from services.matchmaking.broker import NatsBroker
from services.matchmaking.challenges import Challenges
from services.matchmaking.config import Config
from services.matchmaking.opening import Opener
from services.matchmaking.queues import Queues
from services.matchmaking.servicer import MatchmakingServicer

SERVICE_NAME = matchmaking_pb2.DESCRIPTOR.services_by_name["Matchmaking"].full_name

log = logging.getLogger(__name__)


class Service:
    """Connects to NATS for the process's life and registers the servicer on its server."""

    def __init__(self, config: Config) -> None:
        self._config = config
        self._broker: NatsBroker | None = None

    @contextlib.asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        """Hold the NATS connection; drain it when the server has stopped."""
        nc = await nats.connect(self._config.nats_url, name="matchmaking")
        self._broker = NatsBroker(nc, self._config.request_timeout_s)
        log.info("connected to NATS", extra={"fields": {"url": self._config.nats_url}})
        try:
            yield
        finally:
            await nc.drain()

    def register(self, server: grpc.aio.Server) -> Sequence[str]:
        """Add the Matchmaking service to ``server``; return its full name."""
        assert self._broker is not None, "register runs inside the lifespan"
        opener = Opener(self._broker)
        servicer = MatchmakingServicer(Queues(opener.online), Challenges(opener.online), opener)
        matchmaking_pb2_grpc.add_MatchmakingServicer_to_server(servicer, server)
        return [SERVICE_NAME]
