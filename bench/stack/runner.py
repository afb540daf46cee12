"""Start the stack, start the workers, measure, and collect their samples."""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import multiprocessing.connection
import os
import tempfile
import time
from pathlib import Path

import aiohttp

from bench.floor.run import Floor, run_floor
from bench.stack.pipe import receive
from bench.stack.procstat import Snapshot, Usage, child_pids_named
from bench.stack.profiling import record, summary
from bench.stack.report import report
from bench.stack.settings import LOAD_CPU, LOAD_ENV, SETUP_TIMEOUT_S, STACK_CPU, STOP_TIMEOUT_S
from bench.stack.worker import WorkerSpec, assign, worker_main
from bench.stack.yardsticks import ratio_lines, spit_step_us
from services.stack.stack import StackConfig, run_stack


async def bench(args: argparse.Namespace) -> None:
    shares = assign(args.matches, args.game, args.workers)
    scales = (("spit", args.spit_scale), ("bid", args.bid_scale))
    context = multiprocessing.get_context("spawn")
    load_cpus: frozenset[int] = frozenset()
    profiled: list[Path] = []
    if args.pin:
        # Every child the stack starts (nats-server included) inherits this process's CPU.
        os.sched_setaffinity(0, {STACK_CPU})
        load_cpus = frozenset({LOAD_CPU})
    floors = [await _floor(args, load_cpus)] if args.floor else []
    with tempfile.TemporaryDirectory(prefix="pf-bench-stack-") as tmp:
        async with (
            run_stack(StackConfig(Path(tmp), with_bots=False, extra_env=LOAD_ENV)) as stack,
            aiohttp.ClientSession() as http,
        ):
            pids = {name: child.process.pid for name, child in stack.children.items()}
            for pid in child_pids_named("nats-server"):
                pids["nats-server"] = pid
            metrics = {
                name: f"http://{child.address('metrics')}/metrics"
                for name, child in stack.children.items()
            }
            conns: list[multiprocessing.connection.Connection] = []
            workers: list[multiprocessing.process.BaseProcess] = []
            try:
                for index, share in enumerate(shares):
                    ours, theirs = context.Pipe()
                    spec = WorkerSpec(
                        index,
                        stack.gateway_url,
                        tuple(share),
                        args.seconds,
                        args.warmup,
                        scales,
                        args.seed,
                        load_cpus,
                        args.transport,
                    )
                    worker = context.Process(
                        target=worker_main, args=(theirs, spec), name=f"bench-worker-{index}"
                    )
                    worker.start()
                    theirs.close()
                    conns.append(ours)
                    workers.append(worker)
                    pids[f"bench worker {index + 1}"] = worker.pid or 0
                for conn in conns:
                    await asyncio.to_thread(receive, conn, SETUP_TIMEOUT_S + 30)
                pids["bench main"] = os.getpid()
                for conn in conns:
                    conn.send("go")
                await asyncio.sleep(args.warmup)
                first = await Snapshot.take(http, pids, metrics)
                if args.profile is not None:
                    profiled = await record(pids, max(1.0, args.seconds - 2), args.profile)
                await asyncio.sleep(args.seconds - (time.perf_counter() - first.at))
                last = await Snapshot.take(http, pids, metrics)
                arbitration_names = [name for name in metrics if name.startswith("arbitration")]
                usage = Usage.between(first, last, pids, arbitration_names)
                results = [await asyncio.to_thread(receive, conn, STOP_TIMEOUT_S) for conn in conns]
            finally:
                for started in workers:
                    started.join(10)
                    if started.is_alive():
                        started.kill()
                        started.join()
    cost = report(args, results, usage)
    if floors:
        floors.append(await _floor(args, load_cpus))  # after the stack: the drift shows
        for when, floor in zip(("before", "after"), floors, strict=True):
            print(f"\n{when} the stack, " + "\n".join(floor.lines()))
    print("\n" + "\n".join(ratio_lines(cost, floors, spit_step_us())))
    if args.profile is not None:
        print("\nprofiles (py-spy; the profiler's own CPU is in the table above):")
        for samples in profiled:
            print(summary(samples))


async def _floor(args: argparse.Namespace, load_cpus: frozenset[int]) -> Floor:
    """Return the floor measured now at the stack's load (``bench.floor``)."""
    return await run_floor(
        args.matches,
        args.seconds,
        args.warmup,
        workers=args.workers,
        load_cpus=load_cpus,
        transport=args.transport,
        shape=args.floor_shape,
    )
