"""Run the arbitration service: `python -m services.arbitration`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence

import grpc
import nats

from photofinish.arbitration.v1 import arbitration_pb2, arbitration_pb2_grpc
from services.arbitration.clock import starting_clock
from services.arbitration.config import Config
from services.arbitration.faults import Fault
from services.arbitration.matchlog.reader import LogReader
from services.arbitration.matchlog.writer import LogWriter, StreamStore
from services.arbitration.monitor import NatsOutages, watch_for_stalls
from services.arbitration.placement import Placement
from services.arbitration.publisher import Publisher
from services.arbitration.rules import RulesClient
from services.arbitration.service import ArbitrationServicer, Matches
from services.arbitration.store import SnapshotStore
from services.arbitration.timers import Timers
from services.common import logs, subjects, tasks
from services.common.placement import Directory
from services.common.serving import serve


async def main(config: Config) -> None:
    matches: list[Matches] = []
    log_readers: list[LogReader] = []
    bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    @contextlib.asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        faults: list[Callable[[Fault], None]] = []
        outages = NatsOutages(config.tolerances, lambda fault: faults[0](fault))
        nc = await nats.connect(
            config.nats_url,
            name=f"arbitration-{config.instance}",
            max_reconnect_attempts=-1,
            **outages.callbacks(),
        )
        js = nc.jetstream()
        await js.add_stream(subjects.results_stream_config())
        await js.add_stream(subjects.log_stream_config())
        log_writer = LogWriter(StreamStore(js), config.instance)
        channel = grpc.aio.insecure_channel(config.rules_addr)
        directory = await Directory.open(js)
        await directory.start()
        placement = Placement(config.instance, directory)
        owned = Matches(
            config.instance,
            RulesClient(channel),
            Publisher(nc, js),
            Timers(config.gate_timeout_s),
            starting_clock(config.bank_ms, config.grace_ms),
            config.tolerances,
            log_writer,
            await SnapshotStore.open(js),
            placement,
        )
        matches.append(owned)
        await owned.take_over()
        announcer = asyncio.create_task(announce_when_bound(placement, config.advertise_host))
        adopter = asyncio.create_task(owned.adopt_orphans(config.adopt_every_s))
        log_readers.append(LogReader(js))
        faults.append(owned.on_fault)
        stalls = asyncio.create_task(watch_for_stalls(config.tolerances, owned.on_fault))
        await nc.subscribe(
            subjects.MATCH_CREATE, queue=subjects.ARBITRATION_QUEUE, cb=owned.on_create_request
        )
        evictor = asyncio.create_task(owned.evict_finished(config.keep_finished_s))
        try:
            yield
        finally:
            for loop in (announcer, adopter, evictor, stalls):
                await tasks.stop(loop)
            await owned.close()
            await directory.stop()
            await log_writer.close()
            await nc.drain()
            await channel.close()

    def register(server: grpc.aio.Server) -> Sequence[str]:
        arbitration_pb2_grpc.add_ArbitrationServicer_to_server(
            ArbitrationServicer(matches[0], log_readers[0]), server
        )
        return [arbitration_pb2.DESCRIPTOR.services_by_name["Arbitration"].full_name]

    async def announce_when_bound(placement: Placement, host: str) -> None:
        await placement.announce(f"{host}:{await bound}")

    await serve("arbitration", config.listen, register, lifespan, bound.set_result)


if __name__ == "__main__":
    logs.configure("arbitration")
    asyncio.run(main(Config.from_env()))
