"""One load-test run: the stack, the tournaments, the workers, the checks, the report."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.connection
import os
import tempfile
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bench.loadtest import checks
from bench.loadtest.driver import WorkerSpec, worker_main
from bench.loadtest.faults import Injected, inject
from bench.loadtest.progress import Progress
from bench.loadtest.report_json import build, write
from bench.loadtest.sampler import Samples, sample
from bench.loadtest.settings import END_TIMEOUT_S, SETUP_TIMEOUT_S, Settings
from bench.loadtest.truth import Truth, gather
from bench.stack import histograms
from bench.stack.procstat import child_pids_named, rss_mb
from bench.stack.settings import GAME_BY_NAME, LOAD_ENV
from clients.arena import ArenaClient
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.tournaments.v1 import tournaments_pb2 as tpb
from services.stack.stack import Stack, StackConfig, run_stack

Message = tuple[int, str, Any]


@dataclass(slots=True)
class Target:
    """The stack under load: where to reach it and, when it is ours, its processes."""

    gateway_url: str
    nats_url: str
    stack: Stack | None = None
    pids: dict[str, int] = field(default_factory=dict)
    arbitration_urls: list[str] = field(default_factory=list)  # arbitration /metrics URLs


@contextlib.asynccontextmanager
async def target(settings: Settings) -> AsyncIterator[Target]:
    """Yield the stack at ``settings.url``, or one of our own in a temporary folder."""
    if settings.url:
        arbitration_urls = [
            u for u in os.environ.get("PF_LOADTEST_ARBITRATION_URLS", "").split(",") if u
        ]
        yield Target(
            settings.url,
            settings.nats_url or "nats://127.0.0.1:7422",
            arbitration_urls=arbitration_urls,
        )
        return
    with contextlib.ExitStack() as folders:
        if settings.data_dir is None:
            data_dir = Path(folders.enter_context(tempfile.TemporaryDirectory(prefix="pf-lt-")))
        else:
            data_dir = settings.data_dir
            data_dir.mkdir(parents=True, exist_ok=True)
        async with run_stack(StackConfig(data_dir, with_bots=False, extra_env=LOAD_ENV)) as stack:
            pids = {name: child.process.pid or 0 for name, child in stack.children.items()}
            for pid in child_pids_named("nats-server"):
                pids["nats-server"] = pid
            arbitration_urls = [
                f"http://{child.address('metrics')}/metrics"
                for name, child in stack.children.items()
                if name.startswith("arbitration")
            ]
            yield Target(stack.gateway_url, stack.nats_url, stack, pids, arbitration_urls)


def shares(settings: Settings) -> list[list[tuple[str, str]]]:
    """Return each worker's players (name, game): games alternate, workers take turns."""
    split: list[list[tuple[str, str]]] = [[] for _ in range(settings.workers)]
    for number in range(settings.players):
        game = settings.games[number % len(settings.games)]
        split[number % settings.workers].append((f"Load {number + 1}", game))
    return split


def _listen(
    index: int,
    conn: multiprocessing.connection.Connection,
    loop: asyncio.AbstractEventLoop,
    queue: asyncio.Queue[Message],
) -> None:
    """Pass a worker's messages to the event loop until it is done (runs in a thread)."""
    while True:
        try:
            kind, body = conn.recv()
        except (EOFError, OSError):
            kind, body = "error", "the worker's pipe closed"
        loop.call_soon_threadsafe(queue.put_nowait, (index, kind, body))
        if kind in ("done", "error"):
            return


async def run(settings: Settings) -> dict[str, Any]:
    """Run the load test once; return the report's figures (also written to ``out``)."""
    async with target(settings) as where, aiohttp.ClientSession() as http:
        queue: asyncio.Queue[Message] = asyncio.Queue()
        pids = dict(where.pids)
        workers, conns = _start_workers(settings, where.gateway_url, pids)
        try:
            players = await _signed_in(conns)
            director = ArenaClient(http, where.gateway_url)
            await director.sign_up_new("Load director", "load test")  # rated tournaments
            tournaments = await _create_tournaments(director, settings)
            baseline_rss = {name: rss_mb(pid) for name, pid in pids.items()}
            started = time.perf_counter()
            progress = Progress(started)
            for index, conn in enumerate(conns):
                conn.send(tournaments)
                _listen_in_thread(index, conn, asyncio.get_running_loop(), queue)
            samples = Samples()
            sampler = asyncio.create_task(
                sample(http, pids, where.arbitration_urls, samples, started)
            )
            before = [await histograms.fetch(http, url) for url in where.arbitration_urls]
            faulted: list[Injected] = []
            fault_task = None
            if where.stack is not None and settings.fault != "none":
                fault_task = asyncio.create_task(
                    _fault_later(where.stack, settings, pids, started, faulted)
                )
            failures = await _follow(settings, progress, queue, len(conns), samples, started)
            if fault_task is not None:
                await fault_task
            sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sampler
            after = [await histograms.fetch(http, url) for url in where.arbitration_urls]
            truth = await gather(
                where.nats_url,
                director,
                sorted({match_id for _, match_id, _, _ in progress.assignments}),
                [(player_id, game) for player_id, _, game in players],
                list(tournaments.values()),
            )
        finally:
            _stop_workers(workers)
    report = build(
        settings,
        progress,
        samples,
        verdicts_of(progress, truth, failures),
        histograms.gained(before, after),
        baseline_rss,
        faulted,
        len(players),
    )
    outcomes = Counter(
        f"voided: {r.reason}" if r.voided else "finished"
        for m, r in truth.results.items()
        if m in truth.games
    )
    report["results"] = dict(outcomes.most_common())
    return write(report, settings.out)


def _start_workers(
    settings: Settings, gateway_url: str, pids: dict[str, int]
) -> tuple[list[Any], list[multiprocessing.connection.Connection]]:
    """Start the worker processes, each with its share of the players; note their pids."""
    context = multiprocessing.get_context("spawn")
    workers: list[Any] = []  # spawn-context processes
    conns: list[multiprocessing.connection.Connection] = []
    scales = tuple((game, settings.scale(game)) for game in settings.games)
    for index, share in enumerate(shares(settings)):
        ours, theirs = context.Pipe()
        spec = WorkerSpec(index, gateway_url, tuple(share), scales, settings.seed)
        worker = context.Process(target=worker_main, args=(theirs, spec), daemon=True)
        worker.start()
        theirs.close()
        workers.append(worker)
        conns.append(ours)
        pids[f"load worker {index + 1}"] = worker.pid or 0
    pids["load main"] = os.getpid()
    return workers, conns


def _stop_workers(workers: list[Any]) -> None:
    for worker in workers:
        worker.join(10)
        if worker.is_alive():
            worker.kill()
            worker.join()


async def _signed_in(
    conns: list[multiprocessing.connection.Connection],
) -> list[tuple[str, str, str]]:
    """Return every player the workers signed in: (player id, name, game).

    Raises:
        TimeoutError: when a worker stays silent past the setup time.
        RuntimeError: when a worker failed.
    """
    players: list[tuple[str, str, str]] = []
    for conn in conns:
        if not await asyncio.to_thread(conn.poll, SETUP_TIMEOUT_S):
            raise TimeoutError("a worker did not sign its players in")
        kind, body = conn.recv()
        if kind != "ready":
            raise RuntimeError(f"a worker failed: {body}")
        players += body
    return players


async def _create_tournaments(director: ArenaClient, settings: Settings) -> dict[str, str]:
    """Return the id of a new rated tournament for each game, starting now."""
    tournaments = {}
    for game in settings.games:
        created = await director.create_tournament(
            tpb.CreateTournamentRequest(
                name=f"Load test {game}",
                game=GAME_BY_NAME[game],
                rated=True,
                duration_s=round(settings.seconds),
            )
        )
        tournaments[game] = created.tournament_id
    return tournaments


def _listen_in_thread(
    index: int,
    conn: multiprocessing.connection.Connection,
    loop: asyncio.AbstractEventLoop,
    queue: asyncio.Queue[Message],
) -> None:
    threading.Thread(target=_listen, args=(index, conn, loop, queue), daemon=True).start()


async def _fault_later(
    stack: Stack, settings: Settings, pids: dict[str, int], started: float, out: list[Injected]
) -> None:
    await asyncio.sleep(max(0.0, settings.fault_at_s - (time.perf_counter() - started)))
    injected = await inject(stack, settings.fault, pids, started)
    if not settings.quiet:
        print(f"FAULT: {injected.describe()}", flush=True)
    out.append(injected)


async def _follow(
    settings: Settings,
    progress: Progress,
    queue: asyncio.Queue[Message],
    workers: int,
    samples: Samples,
    started: float,
) -> list[str]:
    """Take the workers' reports until all are done; print a line a second; return failures."""
    done, failures = 0, []
    next_line = 1.0
    limit = settings.seconds + END_TIMEOUT_S + 60
    while done < workers:
        try:
            async with asyncio.timeout(1.0):  # not wait_for: it can lose a Ctrl-C's cancel
                index, kind, body = await queue.get()
        except TimeoutError:
            index, kind, body = -1, "", None
        if kind == "batch":
            progress.add(index, body)
        elif kind == "done":
            done += 1
        elif kind == "error":
            failures.append(f"worker {index + 1}: {body}")
            done += 1
        now = time.perf_counter() - started
        if now >= next_line:
            next_line = now + 1.0
            live = samples.live[-1][1] if samples.live else float("nan")
            line = progress.line(now, settings.players, live)
            if not settings.quiet:
                print(line, flush=True)
        if now > limit:
            failures.append(f"the workers were still busy {limit:.0f} s after the start")
            break
    return failures


def verdicts_of(progress: Progress, truth: Truth, failures: list[str]) -> list[checks.Verdict]:
    """Return every check's verdict over what the run collected."""
    final_voids = [
        reason
        for _, _, status, reason in progress.finals
        if status == arbitration_pb2.STATUS_VOIDED
    ]
    ours = {m for _, m, _, _ in progress.assignments} | set(truth.games)
    results = {m: r for m, r in truth.results.items() if m in ours}
    errors = dict(progress.errors)
    for failure in failures:
        errors[failure] = errors.get(failure, 0) + 1
    return [
        checks.races(truth.logs),
        checks.hidden(progress.received, truth.secrets),
        checks.chips(progress.received),
        checks.rated_once(results, truth.histories),
        checks.voids_explained(results, final_voids),
        checks.no_lost_results(
            truth.logs, results, truth.games, [m for _, m, _, _ in progress.assignments]
        ),
        checks.client_errors(errors, dict(progress.refusals)),
    ]
