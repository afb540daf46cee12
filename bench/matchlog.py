"""The arbitration log's cost: building an entry, and storing it (what every change waits for).

Run with ``.venv/bin/python -m bench.matchlog``. Three figures:

- **build**: the entry of an accepted command as the match's worker makes it, and its encoding.
- **store**: one fenced JetStream append and its acknowledgement, one after another: the
  time a change waits before anything of it is shown.
- **store, many matches**: the same with many matches appending at once (each match one
  entry at a time, as its worker does), against a nats-server started for the run:
  entries stored per second and this process's CPU per entry.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import nats

from bench.stack.procstat import percentile
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from photofinish.rules.v1 import rules_pb2
from services.arbitration import record
from services.arbitration.match import Match, Submission
from services.arbitration.matchlog import entries
from services.arbitration.matchlog.writer import LogWriter, StreamStore
from services.common.jetstream_config import log_stream_config
from services.common.natslink.link import NatsLink
from services.common.natslink.requests import Requests
from services.stack.natsd import start_nats

PLAY = game_pb2.Command(
    bid=bid_pb2.BidCommand(play=bid_pb2.BidPlay(tile=bid_pb2.Tile(low=3, high=5)))
)
STEP = rules_pb2.StepReply(
    version=9,
    decision=game_pb2.Decision(seats=[1], fresh=True),
    state_sha256=bytes(32),
)


def bid_match(match_id: str) -> Match:
    """Return a Bid match as the arbitration holds it after its header (no worker)."""
    created = events_pb2.MatchCreated(match_id=match_id, game=game_pb2.GAME_BID, seed=7)
    opening = rules_pb2.StepReply(version=0, clocked=True, decision=STEP.decision)
    header = entries.opened_entry(created, opening, time.monotonic_ns(), 120_000, 10_000, "")
    return record.opened(header)


def _nobody(answer: object) -> None:
    return None


def micros(samples_ns: list[int]) -> str:
    ordered: list[float] = sorted(samples_ns)
    p99 = percentile(ordered, 0.99)
    return f"median {statistics.median(ordered) / 1000:.1f} µs, p99 {p99 / 1000:.1f} µs"


def build_cost(commands: int) -> list[int]:
    """Return the ns each accepted command's entry took to build and encode."""
    match = bid_match("bench")
    samples = []
    for n in range(commands):
        item = Submission(time.monotonic_ns(), 0, n + 1, PLAY, _nobody)
        started = time.perf_counter_ns()
        entries.accepted_entry(match, item, STEP, match.opened_ns + 10**9).SerializeToString()
        samples.append(time.perf_counter_ns() - started)
    return samples


async def store_cost(url: str, appends: int, matches: int) -> tuple[list[int], float, float]:
    """Return the ack latencies of one match's appends, then with many matches at once the
    entries stored per second and this process's CPU µs per entry."""
    nc = await nats.connect(url)
    js = nc.jetstream()
    await js.add_stream(log_stream_config())
    link = await NatsLink.connect(url, "bench")
    log_writer = LogWriter(StreamStore(Requests(link), js))
    one = bid_match("one")
    log_writer.begin(one.match_id)
    samples = []
    for n in range(appends):
        entry = entries.accepted_entry(one, Submission(0, 0, n + 1, PLAY, _nobody), STEP, None)
        started = time.perf_counter_ns()
        await log_writer.append(one, entry)
        samples.append(time.perf_counter_ns() - started)
    held = [bid_match(f"m{n}") for n in range(matches)]

    async def append_all(match: Match) -> None:
        log_writer.begin(match.match_id)
        for n in range(appends // 10):
            item = Submission(0, 0, n + 1, PLAY, _nobody)
            await log_writer.append(match, entries.accepted_entry(match, item, STEP, None))

    started_s, cpu_s = time.perf_counter(), time.process_time()
    await asyncio.gather(*(append_all(match) for match in held))
    stored = matches * (appends // 10)
    rate = stored / (time.perf_counter() - started_s)
    cpu_us = (time.process_time() - cpu_s) * 1e6 / stored
    await link.close()
    await nc.close()
    return samples, rate, cpu_us


async def main(args: argparse.Namespace) -> None:
    print(f"build (the entry of an accepted command, encoded): {micros(build_cost(args.commands))}")
    with tempfile.TemporaryDirectory() as data_dir:
        server = await start_nats(Path(data_dir))
        try:
            acks, rate, cpu_us = await store_cost(server.url, args.appends, args.matches)
        finally:
            await server.stop()
    print(f"store (one fenced JetStream append and its ack): {micros(acks)}")
    print(
        f"store, {args.matches} matches at once: {rate:,.0f} entries/s, "
        f"{cpu_us:.0f} µs of this process's CPU per entry"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=20_000)
    parser.add_argument("--appends", type=int, default=2_000)
    parser.add_argument("--matches", type=int, default=200)
    asyncio.run(main(parser.parse_args()))
