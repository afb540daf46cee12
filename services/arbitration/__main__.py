"""Run the arbitration service: `python -m services.arbitration`."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import AsyncIterator, Sequence

import grpc

from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc
from runtime import logs, loops
from services.arbitration.clock import starting_clock
from services.arbitration.config import Config
from services.arbitration.eviction import evict_finished
from services.arbitration.faults import Fault
from services.arbitration.listing import Listing
from services.arbitration.matches import Matches
from services.arbitration.matchlog.reader import LogReader
from services.arbitration.matchlog.writer import LogWriter, StreamStore
from services.arbitration.monitor import NatsOutages, stall_watcher
from services.arbitration.open_requests import answer_open_request
from services.arbitration.ownership import Placement
from services.arbitration.publisher import Publisher
from services.arbitration.replays import Replays
from services.arbitration.rules_client import RulesClient, over_nats
from services.arbitration.servicer import ArbitrationServicer
from services.arbitration.submits import SubmitIntake
from services.arbitration.takeover import Takeover
from services.arbitration.timers import Timers
from services.common import natsmetrics, tasks
from services.common.jetstream_config import (
    declared_stream,
    log_stream_config,
    results_stream_config,
)
from services.common.live import live_bucket
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import Requests
from services.common.placement import Directory
from services.common.serving import serve
from wire import subjects


class Arbitration:
    """The process: its connections and tasks, opened by ``lifespan``, served by ``register``."""

    def __init__(self, config: Config) -> None:
        self._config = config
        self._bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._servicer: ArbitrationServicer | None = None
        self._matches: Matches | None = None

    def on_fault(self, fault: Fault) -> None:
        """Hand a fault of the whole process to every live match (none before they exist)."""
        if self._matches is not None:
            self._matches.on_fault(fault)

    def on_bound(self, port: int) -> None:
        self._bound.set_result(port)

    @contextlib.asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        config = self._config
        # The one clock every arrival stamp, deadline, timer and age of this process is read
        # from: monotonic, in nanoseconds (the event loop's own clock too).
        now = time.monotonic_ns
        outages = NatsOutages(config.tolerances, self.on_fault, now)
        nc = await natsmetrics.connect(
            config.nats_url,
            f"arbitration-{config.instance}",
            max_reconnect_attempts=-1,
            **outages.callbacks(),
        )
        js = nc.jetstream()
        await js.add_stream(results_stream_config())
        await declared_stream(js, log_stream_config(config.log_limits))
        # The hot path's own connection: submits, rules calls, log appends, views.
        link = await NatsLink.connect(
            config.nats_url,
            f"arbitration-{config.instance}-link",
            outages.disconnected,
            outages.reconnected,
            config.nats_coalesce_s,
        )
        requests = Requests(link)
        log_writer = LogWriter(
            StreamStore(requests, js), config.instance, config.log_limits.entries_per_match
        )
        directory = await Directory.open(js)
        await directory.start()
        placement = Placement(config.instance, directory)
        rules = RulesClient(over_nats(requests), expect=requests.expect)
        listing = Listing(await live_bucket(js))
        listing.start()
        publisher = Publisher(link, js, now, listing)
        matches = Matches(
            config.instance,
            rules,
            publisher,
            Timers(config.gate_timeout_s, now),
            starting_clock(config.bank_ms, config.grace_ms),
            config.tolerances,
            log_writer,
            placement,
            now=now,
            away_after_s=config.away_after_s,
            abandoned_after_s=config.abandoned_after_s,
        )
        self._matches = matches
        log_reader = LogReader(js)
        self._servicer = ArbitrationServicer(matches, log_reader, Replays(log_reader, requests))
        takeover = Takeover(matches, placement)
        await takeover.take_over()
        loops = [
            asyncio.create_task(self._announce(placement)),
            asyncio.create_task(takeover.adopt_orphans(config.adopt_every_s)),
            asyncio.create_task(evict_finished(matches, config.keep_finished_s)),
        ]
        stalls = stall_watcher(config.tolerances, self.on_fault, matches.holds_any)
        stalls.start()
        intake = SubmitIntake(link, matches, publisher)
        intake.start(config.instance)
        matches.attendance.start()
        presence = link.subscribe(
            subjects.PRESENCE, lambda message: matches.attendance.on_presence(message.data)
        )
        await nc.subscribe(
            subjects.MATCH_CREATE,
            queue=subjects.ARBITRATION_QUEUE,
            cb=functools.partial(answer_open_request, matches),
        )
        try:
            yield
        finally:
            link.unsubscribe(presence)
            matches.attendance.stop()
            intake.stop()
            stalls.stop()
            for loop in loops:
                await tasks.stop(loop)
            await matches.close()
            await listing.stop()
            await directory.stop()
            await rules.close()
            await link.close()
            await nc.drain()

    def register(self, server: grpc.aio.Server) -> Sequence[str]:
        assert self._servicer is not None, "register runs inside the lifespan"
        arbitration_pb2_grpc.add_ArbitrationServicer_to_server(self._servicer, server)
        return [arbitration_pb2.DESCRIPTOR.services_by_name["Arbitration"].full_name]

    async def _announce(self, placement: Placement) -> None:
        """Announce this instance's address once the gRPC port is bound."""
        await placement.announce(f"{self._config.advertise_host}:{await self._bound}")


async def main(config: Config) -> None:
    arbitration = Arbitration(config)
    await serve(
        "arbitration",
        config.listen,
        arbitration.register,
        arbitration.lifespan,
        arbitration.on_bound,
        lag_every_s=None,  # the stall watcher samples the loop's lag
    )


if __name__ == "__main__":
    logs.configure("arbitration")
    loops.run(main(Config.from_env()))
