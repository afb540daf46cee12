"""The arbitration log's cost: what recording adds to a command, and what storing takes.

Run with ``.venv/bin/python -m bench.matchlog``. Three figures:

- **record**: ``LogWriter.judged`` as the referee calls it after judging a command — build
  the entry, number it, queue it, wake the match's writer. This is all a command's
  answer waits for.
- **write**: what the writer does per entry off the answer path (sha256 of the state,
  encoding the entry), on the same event loop.
- **store**: a JetStream append with its acknowledgement, one match after another and
  many matches at once, against a nats-server started for the run.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import statistics
import tempfile
import time
from pathlib import Path

import nats

from bench.stack.procstat import percentile
from games.decision import Step
from photofinish.arbitration.v1 import arbitration_pb2, log_pb2
from photofinish.events.v1 import events_pb2
from photofinish.game.v1 import bid_pb2, game_pb2
from services.arbitration.decision import decision_from_proto
from services.arbitration.match import Match, Submission
from services.arbitration.matchlog.writer import LogWriter, MemoryStore, StreamStore
from services.arbitration.timing import Timing
from services.common.streams import log_stream_config
from services.rules import replies
from services.rules.games import entry_for
from services.stack.natsd import start_nats

PLAY = game_pb2.Command(
    bid=bid_pb2.BidCommand(play=bid_pb2.BidPlay(tile=bid_pb2.Tile(low=3, high=5)))
)


def bid_match(match_id: str) -> Match:
    """Return a freshly dealt Bid match as the arbitration holds it (no worker)."""
    entry = entry_for(game_pb2.GAME_BID)
    state = entry.engine.new_match(entry.codec.options_from_proto(game_pb2.Options()), 7)
    step = replies.step_reply(entry, Step(state, (), entry.engine.decision(state)))
    return Match(
        created=events_pb2.MatchCreated(match_id=match_id, game=game_pb2.GAME_BID, seed=7),
        opened_ns=time.monotonic_ns(),
        state=step.state,
        version=step.version,
        decision=decision_from_proto(step.decision),
        decision_proto=step.decision,
        timing=Timing(),
    )


def micros(samples_ns: list[int]) -> str:
    ordered: list[float] = sorted(samples_ns)
    p99 = percentile(ordered, 0.99)
    return f"median {statistics.median(ordered) / 1000:.1f} µs, p99 {p99 / 1000:.1f} µs"


async def record_cost(commands: int) -> list[int]:
    """Return the ns each ``judged`` call took, the writer draining between commands."""
    log_writer = LogWriter(MemoryStore(keep=False))
    match = bid_match("bench")
    loop = asyncio.get_running_loop()
    reply = arbitration_pb2.SubmitReply(seq=1, arrival_us=5)
    samples = []
    for n in range(commands):
        item = Submission(time.monotonic_ns(), 0, n + 1, PLAY, loop.create_future())
        started = time.perf_counter_ns()
        log_writer.judged(match, item, reply, match.opened_ns + 10**9)
        samples.append(time.perf_counter_ns() - started)
        await asyncio.sleep(0)  # the writer stores it, as it would between commands
    await log_writer.flush("bench")
    return samples


def write_cost(entries: int) -> list[int]:
    """Return the ns the writer spends per entry: hash the state, encode the entry."""
    match = bid_match("bench")
    entry = log_pb2.LogEntry(match_id="bench", kind=log_pb2.ENTRY_KIND_ACCEPTED, command=PLAY)
    samples = []
    for _ in range(entries):
        started = time.perf_counter_ns()
        entry.state_sha256 = hashlib.sha256(match.state).digest()
        entry.SerializeToString()
        samples.append(time.perf_counter_ns() - started)
    return samples


async def store_cost(url: str, entries: int, matches: int) -> tuple[list[int], float, float]:
    """Return the ack latencies of sequential appends, then with many matches at once the
    entries stored per second and this process's CPU µs per entry."""
    nc = await nats.connect(url)
    js = nc.jetstream()
    await js.add_stream(log_stream_config())
    store = StreamStore(js)
    data = log_pb2.LogEntry(match_id="seq", command=PLAY, state_sha256=bytes(32))
    payload = data.SerializeToString()
    samples = []
    for index in range(entries):
        started = time.perf_counter_ns()
        await store.put("seq", index, payload)
        samples.append(time.perf_counter_ns() - started)
    log_writer = LogWriter(store)
    held = [bid_match(f"m{n}") for n in range(matches)]
    loop = asyncio.get_running_loop()
    reply = arbitration_pb2.SubmitReply(seq=1)
    started_s, cpu_s = time.perf_counter(), time.process_time()
    for n in range(entries):
        for match in held:
            item = Submission(time.monotonic_ns(), 0, n + 1, PLAY, loop.create_future())
            log_writer.judged(match, item, reply, None)
        await asyncio.sleep(0)
    for match in held:
        await log_writer.flush(match.match_id)
    rate = entries * matches / (time.perf_counter() - started_s)
    cpu_us = (time.process_time() - cpu_s) * 1e6 / (entries * matches)
    await nc.close()
    return samples, rate, cpu_us


async def main(args: argparse.Namespace) -> None:
    print(f"record (on the answer path): {micros(await record_cost(args.commands))}")
    print(f"write (per entry, after the answer): {micros(write_cost(args.commands))}")
    with tempfile.TemporaryDirectory() as data_dir:
        server = await start_nats(Path(data_dir))
        try:
            acks, rate, cpu_us = await store_cost(server.url, args.appends, args.matches)
        finally:
            await server.stop()
    print(f"store (one JetStream append and its ack): {micros(acks)}")
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
