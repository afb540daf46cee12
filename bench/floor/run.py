"""Run the floor: nats-server, the relay and the real gateway, under the stack's load.

The gateway is the stack's own (``services.gateway``, the same gRPC-web, tokens, Submit
batching and Watch streams). The shapes: ``relay``, one hop to a relay standing where the
arbitration stands (``bench.floor.relay``); ``design``, the fewest hops the design allows
(``bench.floor.chain``: a stamper, a JetStream store, a judge); ``judged``, that shape with
a judge that steps real matches and sends real views (``bench.floor.rules_judge``);
``changes``, the same with views sent as changes; ``facts`` and ``changes-facts``, those
two with the step's facts sent to the stamper after every step (Spit's too), not only
after a clocked one. The matches are recorded as the relay's in
the placement bucket, so the gateway routes their Submits as it routes any match's. CPU per
command is each process's ``/proc`` CPU over the measured window divided by the commands
answered.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.connection
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

import nats
from nats.js import api

from bench.floor.chain import JUDGE_SUBJECT, LOG_SUBJECTS, STREAM
from bench.floor.load import FloorSpec, floor_worker
from bench.floor.relay import INSTANCE as RELAY_INSTANCE
from bench.stack.pipe import receive
from bench.stack.procstat import cpu_seconds, percentile, wakes
from bench.stack.settings import SETUP_TIMEOUT_S, STOP_TIMEOUT_S
from services.common.placement import owners_bucket
from services.stack.natsd import start_nats
from services.stack.processes import Child, start_child

SHAPES = ("relay", "design", "judged", "changes", "facts", "changes-facts")
# PF_FLOOR_RULES of each shape with a judge; the "-facts" shapes send facts every step.
_JUDGES = {
    "design": "",
    "judged": "views",
    "changes": "changes",
    "facts": "views",
    "changes-facts": "changes",
}


@dataclass(frozen=True, slots=True)
class Floor:
    """What the floor cost: CPU seconds by process over the window, and its commands."""

    cpu: dict[str, float]
    commands: int
    wall_s: float
    both_ms: list[float] = field(default_factory=list)
    shape: str = "relay"
    wakes: dict[str, int] = field(default_factory=dict)  # context switches, every thread

    @property
    def ms_per_command(self) -> float:
        return 1000 * sum(self.cpu.values()) / max(1, self.commands)

    @property
    def gateway_ms_per_command(self) -> float:
        return 1000 * self.cpu.get("gateway", 0.0) / max(1, self.commands)

    def lines(self) -> list[str]:
        """Return the floor's printout: per process and in total, and its latency."""
        both = sorted(self.both_ms)
        path = (
            "one NATS hop to a relay and back to both seats' streams"
            if self.shape == "relay"
            else "a stamper, a JetStream store, a judge, both seats' streams"
            if self.shape == "design"
            else "a stamper, a JetStream store, a judge stepping real matches, both seats' streams"
            + (" (views as changes)" if self.shape.startswith("changes") else "")
            + (", its facts to the stamper every step" if self.shape.endswith("facts") else "")
        )
        rows = [
            f"floor ({self.shape}): {self.commands} commands ({self.commands / self.wall_s:.0f}/s)"
            f" through the gateway, {path}; "
            f"submit → both views p50 {percentile(both, 0.5):.1f} ms, "
            f"p99 {percentile(both, 0.99):.1f} ms",
        ]
        for name, cpu in [*self.cpu.items(), ("floor total", sum(self.cpu.values()))]:
            woke = self.wakes.get(name, sum(self.wakes.values()))
            rows.append(
                f"  {name:16} {cpu:7.2f} cpu s {1000 * cpu / max(1, self.commands):7.3f} ms/cmd"
                f" {woke / max(1, self.commands):6.2f} wakes/cmd"
            )
        return rows


async def run_floor(
    matches: int,
    seconds: float,
    warmup_s: float,
    commands_per_s: float = 2.0,
    workers: int = 2,
    load_cpus: frozenset[int] = frozenset(),
    transport: str = "socket",
    shape: str = "relay",
) -> Floor:
    """Return what the floor of ``shape`` cost for ``matches`` pairs of players at the
    given pace, playing over ``transport`` (bench.stack.timeline.TRANSPORTS)."""
    with tempfile.TemporaryDirectory(prefix="pf-bench-floor-") as tmp:
        server = await start_nats(Path(tmp) / "nats")
        children: list[Child] = []
        try:
            base = {"NATS_URL": server.url}
            logs = Path(tmp) / "logs"
            pids: dict[str, int] = {}
            if shape in _JUDGES:
                await _store(server.url)
                facts = "every" if shape.endswith("facts") else "clocked"
                chain = {**base, "PF_FLOOR_RULES": _JUDGES[shape], "PF_FLOOR_FACTS": facts}
                judge = await start_child(
                    "judge", "bench.floor.chain", {**chain, "PF_FLOOR_ROLE": "judge"}, logs
                )
                children.append(judge)
                pids["judge"] = judge.process.pid
                relay = await start_child(
                    "stamper", "bench.floor.chain", {**chain, "PF_FLOOR_ROLE": "stamp"}, logs
                )
            else:
                relay = await start_child("relay", "bench.floor.relay", base, logs)
            children.append(relay)
            pids[relay.name] = relay.process.pid
            gateway_env = {
                **base,
                "PF_HTTP_PORT": "0",
                "PF_ARBITRATION_ADDR": relay.address(),
                "PF_MATCHMAKING_ADDR": relay.address(),  # never called by the floor
                "PF_RATINGS_ADDR": relay.address(),
                "PF_TOURNAMENTS_ADDR": relay.address(),
            }
            gateway = await start_child(
                "gateway", "services.gateway", gateway_env, Path(tmp) / "logs"
            )
            children.append(gateway)
            match_ids = [f"floor-{n}" for n in range(matches)]
            await _place(server.url, match_ids)
            pids["gateway"] = gateway.process.pid
            pids["nats-server"] = server.process.pid
            floor = await _measure(
                f"http://127.0.0.1:{gateway.ports['http']}",
                match_ids,
                pids,
                seconds,
                warmup_s,
                commands_per_s,
                workers,
                load_cpus,
                transport,
            )
            return replace(floor, shape=shape)
        finally:
            for child in reversed(children):
                await child.stop()
            await server.stop()


async def _store(url: str) -> None:
    """Declare the design floor's log stream and the push consumer that feeds the judge."""
    nc = await nats.connect(url)
    js = nc.jetstream()
    await js.add_stream(name=STREAM, subjects=[LOG_SUBJECTS], storage=api.StorageType.FILE)
    await js.add_consumer(
        STREAM,
        api.ConsumerConfig(
            durable_name="judge",
            deliver_subject=JUDGE_SUBJECT,
            deliver_policy=api.DeliverPolicy.NEW,
            ack_policy=api.AckPolicy.NONE,
        ),
    )
    await nc.close()


async def _place(url: str, match_ids: list[str]) -> None:
    """Record the relay as every floor match's owner, as an arbitration instance would."""
    nc = await nats.connect(url)
    owners = await owners_bucket(nc.jetstream())
    for match_id in match_ids:
        await owners.put(match_id, RELAY_INSTANCE.encode())
    await nc.close()


async def _measure(
    url: str,
    match_ids: list[str],
    pids: dict[str, int],
    seconds: float,
    warmup_s: float,
    commands_per_s: float,
    workers: int,
    load_cpus: frozenset[int],
    transport: str,
) -> Floor:
    context = multiprocessing.get_context("spawn")
    shares = [match_ids[index::workers] for index in range(workers)]
    conns, procs = [], []
    for index, share in enumerate(shares):
        if not share:
            continue
        ours, theirs = context.Pipe()
        spec = FloorSpec(
            url, tuple(share), seconds, warmup_s, commands_per_s, index, load_cpus, transport
        )
        proc = context.Process(target=floor_worker, args=(theirs, spec), name=f"floor-load-{index}")
        proc.start()
        theirs.close()
        conns.append(ours)
        procs.append(proc)
    try:
        for conn in conns:
            await asyncio.to_thread(receive, conn, SETUP_TIMEOUT_S)
        for conn in conns:
            conn.send("go")
        await asyncio.sleep(warmup_s)
        first = {name: cpu_seconds(pid) for name, pid in pids.items()}
        first_wakes = {name: wakes(pid) for name, pid in pids.items()}
        loop = asyncio.get_running_loop()
        started = loop.time()
        await asyncio.sleep(seconds)
        cpu = {name: cpu_seconds(pid) - first[name] for name, pid in pids.items()}
        woke = {name: wakes(pid) - first_wakes[name] for name, pid in pids.items()}
        wall_s = loop.time() - started
        results = [await asyncio.to_thread(receive, conn, STOP_TIMEOUT_S) for conn in conns]
    finally:
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
    commands = sum(r["accepted"] for r in results)
    both = [1000 * v for r in results for v in r["both_s"]]
    return Floor(cpu, commands, wall_s, both, wakes=woke)
